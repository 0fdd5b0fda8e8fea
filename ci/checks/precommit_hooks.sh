#!/usr/bin/env bash
# The pre-commit hooks with the real pre-commit (PyPI), in a throwaway repository:
#
#   ci/checks/precommit_hooks.sh WEBPOLICY_BINARY
#
# 1. `webpolicy init` scaffolds the repository; its local hooks (language: system, the
#    webpolicy on PATH) pass on the scaffold.
# 2. A .pre-commit-config.yaml pointing at this checkout (language: swift: pre-commit builds
#    webpolicy itself): a valid policy commits, an invalid one is refused with file:line:col.
# 3. A repository with policies and no traces yet (a first day) commits: the simulate hook
#    passes, noting that nothing was replayed.
# (`pre-commit try-repo` reads the same manifest and builds the same way, in a store of its
# own: checking it too cost CI a second release build of webpolicy, minutes, for no code of
# ours. The release build here takes about two and a half minutes on two cores.)
# The checkout must be committed (pre-commit clones HEAD), as CI's fresh clone is.
set -euo pipefail
binary=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
checkout=$(cd "$(dirname "$0")/../.." && pwd)
rev=$(git -C "$checkout" rev-parse HEAD)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PRE_COMMIT_HOME="$work/pre-commit-cache"
export PATH="$(dirname "$binary"):$PATH"
# The hooks lint and simulate: their release build needs no swift-syntax (minutes), which
# WEBPOLICY_SWIFT_AUDIT=0 leaves out, as docs/audit.md tells a team whose hooks only lint.
export WEBPOLICY_SWIFT_AUDIT=0
fail() { echo "precommit_hooks: $*" >&2; exit 1; }

git init -q "$work/app"
cd "$work/app"
git config user.email ci@example.com
git config user.name CI
git config commit.gpgsign false

echo "-- 1. webpolicy init, and its local hooks"
webpolicy init
webpolicy init >/dev/null 2>&1 && fail "a second init overwrote the files"
pre-commit run --all-files || fail "the scaffold's own hooks do not pass"

echo "-- 2. hooks from this checkout (pre-commit builds webpolicy: a few minutes)"
# Relative, as try-repo writes it in its own config.
relative=$(python3 -c 'import os, sys; print(os.path.relpath(sys.argv[1]))' "$checkout")
cat > .pre-commit-config.yaml <<CONFIG
repos:
  - repo: $relative
    rev: $rev
    hooks:
      - id: webpolicy-lint
      - id: webpolicy-simulate
CONFIG
pre-commit install
git add -A
git commit -q -m "a valid policy" || fail "the valid policy was refused"

sed -i 's/  - host: legacy.example.com/  - host: Legacy.example.com/' policies/app.yaml
git add -A
if git commit -m "an invalid policy" > "$work/refused.txt" 2>&1; then
    cat "$work/refused.txt"
    fail "the invalid policy was committed"
fi
cat "$work/refused.txt"
grep -q "policies/app.yaml:15:11: error: the http-allowlist host 'Legacy.example.com' has uppercase letters \[host-uppercase\]" "$work/refused.txt" \
    || fail "the refusal does not show the diagnostic at file:line:col"
git reset -q --hard

echo "-- 3. the first day: a policy changes while no trace exists yet; both hooks run and pass"
git rm -q policies/app.trace
printf '# The shop web view.\n' | cat - policies/app.yaml > "$work/app.yaml" && mv "$work/app.yaml" policies/app.yaml
git add -A
git commit -m "policies, no traces yet" > "$work/first-day.txt" 2>&1 || { cat "$work/first-day.txt"; fail "a repository with policies and no traces was refused"; }
cat "$work/first-day.txt"
grep -q "webpolicy simulate.*Passed" "$work/first-day.txt" || fail "the simulate hook did not run on the first day"

echo "precommit_hooks: ok"
