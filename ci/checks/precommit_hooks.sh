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
# 5. The audit hook (language: system) refuses a commit whose app code makes the web view
#    inspectable in a release build against the policy, with file:line:col, and accepts the fix.
# 4. The hooks' build is one without the SwiftAudit trait (WEBPOLICY_SWIFT_AUDIT=0): it links
#    no swift-syntax; its audit reads Objective-C, plists and storyboards and refuses Swift it
#    cannot read, except in the build plugin's run (--swift-stamp), which leaves Swift out and
#    says so.
# (`pre-commit try-repo` reads the same manifest and builds the same way, in a store of its
# own: checking it too cost CI a second release build of webpolicy, minutes, for no code of
# ours. The release build here, without swift-syntax, takes about 840 CPU-seconds: 1,490 when
# the Swift reader's module still compiled swift-syntax without the trait.)
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
# And unoptimised, as docs/ci.md offers a team: about 290 CPU-seconds instead of 840, the
# difference CI's budget needed; the hooks' lint and simulate of this repository take 0.2 s.
export WEBPOLICY_UNOPTIMISED=1
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

echo "-- 4. the hooks' build has no swift-syntax"
built=$(find "$PRE_COMMIT_HOME" -path '*/release/webpolicy' -type f | head -1)
[ -n "$built" ] || fail "pre-commit's build of webpolicy was not found under $PRE_COMMIT_HOME"
fixtures=$checkout/Tests/Fixtures/audit
if nm "$built" | grep -q SwiftParser; then fail "the hooks' build links swift-syntax"; fi
# Nor compiles it: `swift build` builds every target, and the Swift reader's follows the trait.
compiled=$(find "$(dirname "$built")" -maxdepth 1 -name 'SwiftSyntax*.build' -o -maxdepth 1 -name 'SwiftParser*.build' | head -3)
[ -z "$compiled" ] || fail "the hooks' build compiled swift-syntax: $compiled"
"$built" audit --inventory "$fixtures/objc-legacy/app" > /dev/null || fail "the trait-less build cannot audit Objective-C"
if "$built" audit "$fixtures/swift-shop/app" > /dev/null 2> "$work/refusal.txt"; then fail "a build without the Swift reader audited Swift files"; fi
grep -q "built without its Swift reader" "$work/refusal.txt" || { cat "$work/refusal.txt"; fail "the refusal does not say why"; }
"$built" audit --policy "$fixtures/mixed-app/policy.yaml" --swift-stamp "$work/stamp.swift" "$fixtures/mixed-app/app" > /dev/null 2> "$work/skip.txt" || true
grep -q "1 Swift file was not audited: this webpolicy was built without the SwiftAudit trait" "$work/skip.txt" || { cat "$work/skip.txt"; fail "the plugin's run does not say it left Swift out"; }

echo "-- 5. the audit hook: the app's code against its policy"
git init -q "$work/audited"
cd "$work/audited"
git config user.email ci@example.com
git config user.name CI
git config commit.gpgsign false
mkdir -p policies App
cat > policies/app.yaml <<POLICY
webpolicy: 1
name: reader
webview:
  inspectable: false
POLICY
cat > App/Reader.swift <<SWIFT
import WebKit

func makeReader() -> WKWebView {
    let webView = WKWebView(frame: .zero, configuration: WKWebViewConfiguration())
    webView.isInspectable = true
    return webView
}
SWIFT
cat > .pre-commit-config.yaml <<CONFIG
repos:
  - repo: $checkout
    rev: $rev
    hooks:
      - id: webpolicy-audit-system
CONFIG
pre-commit install
git add -A
if git commit -m "an inspectable release build" > "$work/audit-refused.txt" 2>&1; then
    cat "$work/audit-refused.txt"
    fail "the audit hook let an inspectable release build through"
fi
cat "$work/audit-refused.txt"
grep -q "App/Reader.swift:5:5: error: webView.isInspectable is set to true in a release build, but the policy says the web view is not inspectable \[inspectable-in-release\]" "$work/audit-refused.txt" \
    || fail "the audit hook's refusal does not show the finding at file:line:col"
sed -i 's/    webView.isInspectable = true/    #if DEBUG\n    webView.isInspectable = true\n    #endif/' App/Reader.swift
git add -A
git commit -q -m "inspectable in debug builds only" || fail "the audit hook refused the fix"

echo "precommit_hooks: ok"
