#!/usr/bin/env bash
# The pins the docs and `webpolicy init` print resolve as written, against a local clone:
#
#   ci/checks/pins_resolve.sh WEBPOLICY
#
# git reads the repository's URL (WebPolicyVersion.repository) from a clone of this checkout
# (url.<clone>.insteadOf, in the environment), so SwiftPM and pre-commit see the lines exactly
# as a new user pastes them:
#  1. `webpolicy init --swiftpm`'s dependency line, in a scratch package: `swift package
#     resolve` picks the release tag of WebPolicyVersion.current;
#  2. docs/ci.md's pre-commit `repo:` and `rev:`, with the system hooks: pre-commit checks the
#     tag out and runs them.
# The clone holds the release tag when this checkout does (ci/release/build.sh --tag made it);
# when it does not (a clone made without tags), the check tags the clone's HEAD as the release
# script would, and says so.
set -euo pipefail
webpolicy=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "pins_resolve: $*" >&2; exit 1; }
version=$("$webpolicy" --version | cut -d' ' -f1)
repository=$(sed -n 's/.*static let repository = "\(.*\)".*/\1/p' "$repo/Sources/WebPolicyKit/Version.swift")

git clone -q "$repo" "$work/clone"
if ! git -C "$work/clone" rev-parse -q --verify "refs/tags/v$version" > /dev/null; then
    echo "pins_resolve: this checkout has no tag v$version: tagging the clone's HEAD as ci/release/build.sh --tag would"
    git -C "$work/clone" -c user.name=CI -c user.email=ci@example.com tag -a "v$version" -m "webpolicy $version"
fi
export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0="url.$work/clone.insteadOf" GIT_CONFIG_VALUE_0="$repository"

echo "-- 1. init --swiftpm's dependency line, resolved by SwiftPM"
mkdir -p "$work/Shop/Sources/Shop" && cd "$work/Shop"
"$webpolicy" init --swiftpm Shop > init.txt
line=$(grep -F ".package(url: \"$repository\"" init.txt) || { cat init.txt; fail "init --swiftpm prints no dependency on $repository"; }
cat > Package.swift <<MANIFEST
// swift-tools-version:6.1
import PackageDescription
let package = Package(
    name: "Shop",
    platforms: [.macOS(.v13), .iOS(.v15)],
    dependencies: [
$line
    ],
    targets: [.target(name: "Shop", dependencies: [.product(name: "WebPolicyRuntime", package: "webpolicy")], exclude: ["app.trace", "app.webpolicy.yaml"])]
)
MANIFEST
# SwiftPM's own cache and fingerprints in the scratch folder: a cache from an earlier run would
# hold another commit under the same tag, and SwiftPM refuses a version whose commit changed.
swift package resolve --cache-path "$work/swiftpm-cache" --security-path "$work/swiftpm-security" > resolve.log 2>&1 || { cat Package.swift resolve.log; fail "SwiftPM cannot resolve: $line"; }
python3 - "$version" <<'PY' || fail "Package.resolved does not pin webpolicy $version"
import json, sys
pins = {pin["identity"]: pin["state"] for pin in json.load(open("Package.resolved"))["pins"]}
state = pins.get("webpolicy", {})
print("resolved webpolicy:", state)
sys.exit(0 if state.get("version") == sys.argv[1] else 1)
PY

echo "-- 2. docs/ci.md's pre-commit pin, with the hooks that use the installed binary"
rev=$(sed -n 's/^ *rev: \(v[0-9.]*\).*/\1/p' "$repo/docs/ci.md" | sort -u)
[ "$rev" = "v$version" ] || fail "docs/ci.md pins rev: '$rev', not v$version"
git init -q "$work/app" && cd "$work/app"
mkdir policies && cp "$repo/policies/https-and-trackers.yaml" "$repo/policies/https-and-trackers.trace" policies/
cat > .pre-commit-config.yaml <<CONFIG
repos:
  - repo: $repository
    rev: $rev
    hooks:
      - id: webpolicy-lint-system
      - id: webpolicy-simulate-system
CONFIG
git add -A
PATH="$(dirname "$webpolicy"):$PATH" PRE_COMMIT_HOME="$work/pre-commit" pre-commit run --all-files > hooks.log 2>&1 \
    || { cat hooks.log; fail "pre-commit with rev: $rev and the system hooks failed"; }
grep -q "webpolicy lint.*Passed" hooks.log && grep -q "webpolicy simulate.*Passed" hooks.log || { cat hooks.log; fail "the hooks did not run"; }
echo "pins resolve: $line and rev: $rev, as written"
