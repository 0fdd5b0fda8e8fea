#!/usr/bin/env bash
# docs/scale.md's Spark recipe (ci/scale/spark_pipe.py), run for real on every CI run: pyspark in
# local mode, a realistic trace over a cut of EasyList + EasyPrivacy, the binary a cluster would
# get (the release binary, ci/release/build.sh's: the Swift runtime linked in, nothing beside it). Checks:
#   1. the binary needs no Swift runtime (ldd names no libswift* and no libFoundation*);
#   2. contiguous splits (about 23 shards, one or two without a page start: empty shards) merge
#      to exactly the single run's counts, and --results keeps every result in order;
#   3. a malformed line in the trace fails the job with the line's place in the trace.
#
# usage: ci/scale/spark_check.sh STATIC_WEBPOLICY SIMULATE_BENCH LIST.json [RULES]
#
# Needs Java 11 or later and pyspark (installed with pip when missing: the wheel is built once
# and kept in pip's cache). Without Java it says so and exits 0: the rest of CI still runs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
absolute() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
webpolicy=$(absolute "$1") bench=$(absolute "$2") whole=$(absolute "$3") rules=${4:-5000}
if ! command -v java >/dev/null 2>&1; then
    echo "spark check skipped: no java on this machine (Spark needs Java 11 or later)"
    exit 0
fi
if ! python3 -c 'import pyspark' 2>/dev/null; then
    python3 -m pip install --quiet pyspark
fi
python3 -c 'import pyspark; print("pyspark", pyspark.__version__)'
java -version 2>&1 | head -1

if ldd "$webpolicy" | grep -E 'libswift|libFoundation|libdispatch|libBlocksRuntime'; then
    echo "$webpolicy links the Swift runtime dynamically: use the release binary (ci/release/build.sh)" >&2
    exit 1
fi
echo "static binary: $(ldd "$webpolicy" | awk '{print $1}' | tr '\n' ' ')"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
# About RULES rules taken evenly through the list, in its order (blocks, then the exceptions'
# ignore-previous-rules): a realistic trace over them is blocked about as often as over the
# whole list, so the shards' merged verdicts hold blocks as well as allows. (The list's first
# 5,000 rules, all element hiding, blocked nothing.)
python3 -c 'import json, sys; rules = json.load(open(sys.argv[1])); step = max(1, len(rules) // int(sys.argv[2])); json.dump(rules[::step], open(sys.argv[3], "w"), indent=0)' "$whole" "$rules" list.json
# 100,000 requests (5.5 MB; 200,000 took twice the time and found nothing more), then a page of
# 5,000 requests (270 KB): a page larger than a split.
"$bench" --list list.json --requests 100000 --write-trace requests.trace
{ echo "page https://www.big.example/"; for i in $(seq 5000); do echo "image https://cdn.big.example/$i.png"; done; } >> requests.trace
"$webpolicy" simulate requests.trace --content-rules list.json --format summary > single.json
python3 - single.json <<'PYTHON'
import json, sys
verdicts = json.load(open(sys.argv[1]))["summary"]["verdicts"]
if verdicts["block"] == 0 or verdicts["allow"] == 0:
    sys.exit("the single run's verdicts are all of one kind (%s): the merge check needs both" % json.dumps(verdicts))
print("single run: %d blocked, %d allowed" % (verdicts["block"], verdicts["allow"]))
PYTHON

spark() {
    python3 "$here/spark_pipe.py" --master 'local[2]' --webpolicy "$webpolicy" --ship list.json "$@" -- --content-rules list.json
}
compare() {
    python3 - single.json "$1" "$2" <<'PYTHON'
import json, sys
single = json.load(open(sys.argv[1]))["summary"]
merged = json.load(open(sys.argv[2]))["summary"]
print("single run:", json.dumps(single))
print("%s:" % sys.argv[3], json.dumps(merged))
if merged["traces"] < 2:
    sys.exit("Spark made %d shard(s); the check needs several" % merged["traces"])
for key in ("requests", "passed", "failed", "unchecked", "verdicts"):
    if single[key] != merged[key]:
        sys.exit("%s: single run %s, Spark %s" % (key, single[key], merged[key]))
PYTHON
}
# 0.25 MB splits: about 23 shards, and the big page leaves a split or two without a page start
# (an empty shard). Every request's result is written too, one part file a shard.
started=$SECONDS
spark --split-mb 0.25 --results results requests.trace > merged.json 2> spark.log || { cat spark.log; exit 1; }
tail -1 spark.log
compare merged.json "Spark, 0.25 MB splits ($(( SECONDS - started )) s)"
python3 - results <<'PYTHON'
import glob, json, sys
results = [json.loads(line) for part in sorted(glob.glob(sys.argv[1] + "/part-*")) for line in open(part)]
lines = [result["line"] for result in results if "verdict" in result]
if len(lines) != 105001 or lines != sorted(lines):
    sys.exit("--results: %d results, in order: %s" % (len(lines), lines == sorted(lines)))
print("--results: 105,001 results, in the trace's order")
PYTHON

# Line 75,001 of the trace, in the middle of a later split.
sed '75001s|.*|image htps//broken.example/x.png|' requests.trace > broken.trace
if spark --split-mb 1 broken.trace > broken.json 2> broken.log; then
    echo "Spark accepted a trace with a malformed line" >&2
    exit 1
fi
if ! grep -q '^broken.trace:75001:7: error: the URL' broken.log; then
    cat broken.log
    echo "the failing shard's error does not name its line in the trace (broken.trace:75001:7)" >&2
    exit 1
fi
grep '^broken.trace:75001' broken.log
echo "Spark recipe: the merged counts equal the single run's; a failing shard names its line in the trace"
