#!/usr/bin/env bash
# A summary counts a trace's lines where they are decided and makes a result only for a line
# that fails; every other output keeps a result for each line. On a real list and a realistic
# trace, both must say the same: the same counts, and the same failing lines with the same
# reasons. The trace's verdicts are recorded as expectations, then one line in 97 is flipped
# (allow <-> block) so that some fail.
#
# The trace as it is, without expectations, is counted too: its verdicts must be the same.
#
# usage: counted_vs_materialised.sh WEBPOLICY LIST.json TRACE
set -euo pipefail
webpolicy=$1
list=$2
trace=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Without expectations, a summary takes the verdict alone of each plain subresource line
# (a line whose expect= fails is decided again in full, so only lines without one show a
# counted verdict that differs): its counts by verdict must be the per-line run's below (the
# verdicts do not depend on the expectations).
plain_counted=$("$webpolicy" simulate "$trace" --content-rules "$list" --format summary || true)

"$webpolicy" simulate "$trace" --content-rules "$list" --record-to "$work/recorded.trace" > /dev/null
awk 'NR % 97 == 0 { if (sub(/expect=allow/, "expect=block") == 0) sub(/expect=block/, "expect=allow") } { print }' \
    "$work/recorded.trace" > "$work/expected.trace"

# Counts: --format summary (counted) against the summary that ends --format json (a result per line).
counted=$("$webpolicy" simulate "$work/expected.trace" --content-rules "$list" --format summary || true)
materialised=$("$webpolicy" simulate "$work/expected.trace" --content-rules "$list" --format json | tail -n 1 || true)
if [ "$counted" != "$materialised" ]; then
    echo "the counted summary and the per-line run disagree:" >&2
    echo "  counted:      $counted" >&2
    echo "  materialised: $materialised" >&2
    exit 1
fi
verdicts() { sed -n 's/.*\("verdicts":{[^}]*}\).*/\1/p'; }
if [ -z "$(echo "$plain_counted" | verdicts)" ] || [ "$(echo "$plain_counted" | verdicts)" != "$(echo "$materialised" | verdicts)" ]; then
    echo "without expectations, the counted summary's verdicts are not the per-line run's:" >&2
    echo "  counted:      $plain_counted" >&2
    echo "  materialised: $materialised" >&2
    exit 1
fi
case "$counted" in
    *'"failed":0,'*) echo "no expectation failed: the flipped lines were not flipped" >&2; exit 1 ;;
esac

# Failures: the human report (counted) against --verbose's failing blocks (a result per line).
"$webpolicy" simulate "$work/expected.trace" --content-rules "$list" > "$work/counted.txt" || true
"$webpolicy" simulate "$work/expected.trace" --content-rules "$list" --verbose > "$work/verbose.txt" || true
grep -v -E '^[0-9]+ (passed|requests? without expectations)' "$work/counted.txt" > "$work/counted-failures.txt"
awk '/^[^ ]/ { keep = ($0 ~ /: FAIL /) } keep' "$work/verbose.txt" > "$work/materialised-failures.txt"
if ! diff -q "$work/counted-failures.txt" "$work/materialised-failures.txt" > /dev/null; then
    diff "$work/counted-failures.txt" "$work/materialised-failures.txt" | head -20 >&2
    echo "the counted run and the per-line run report different failures" >&2
    exit 1
fi
failures=$(grep -c ': FAIL ' "$work/counted-failures.txt")
echo "counted and per-line runs agree: $counted; $failures failing lines, reasons identical"
