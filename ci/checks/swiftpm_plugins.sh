#!/usr/bin/env bash
# The SwiftPM plugins as an app team meets them (docs/swiftpm.md): the fixture package
# Tests/Fixtures/swiftpm/PolicyApp, depending on this checkout with its default traits,
#  1. builds: its bundle holds the compiled list and manifest, and its executable loads them
#     through WebPolicyRuntime and prints verdicts;
#  2. builds again with nothing changed without running the plugin's command, and again after
#     an included file changes, running it;
#  3. fails to build with a broken policy, showing its path:line:col and rule id, and with code
#     registering an undeclared bridge, showing the audit's finding at the line of Swift;
#  4. runs `swift package webpolicy lint` and `simulate` without flags (reading asks for no
#     permission); `webpolicy-fix` rewrites a policy with the write permission and is refused
#     without it, and the reading plugin refuses `lint --fix`.
# The package builds in the checkout's own build folder (--scratch-path), after the checkout's
# debug build: SwiftPM then reuses every module of webpolicy and its dependencies and compiles
# only the app and the plugins (about 20 s, against five minutes for a second build of webpolicy
# from nothing). For that, the dependency is the checkout's real path, so its identity is the
# checkout folder's name (`main` in CI's clone) and the products are named by it. The build
# without swift-syntax (the trait off) is checked by ci/checks/precommit_hooks.sh, whose
# hooks' build has it off and whose plugin-run audit says the Swift was left out.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd -P)
scratch=$repo/.build
identity=$(basename "$repo" | tr '[:upper:]' '[:lower:]')
work=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
cp -R "$repo/Tests/Fixtures/swiftpm/PolicyApp" "$work/PolicyApp"
cd "$work/PolicyApp"
sed -i "s|.package(path: \"../webpolicy\")|.package(path: \"$repo\")|; s|package: \"webpolicy\"|package: \"$identity\"|g" Package.swift
grep -q "path: \"$repo\"" Package.swift || { cat Package.swift; echo "swiftpm_plugins: the fixture's dependency was not pointed at $repo" >&2; exit 1; }
# Every command in the checkout's build folder (see above).
swiftpm() { local command=$1; shift; swift "$command" --scratch-path "$scratch" "$@"; }
broken=$work/PolicyApp/broken
target=Sources/PolicyApp
fail() { echo "swiftpm_plugins: $*" >&2; exit 1; }
marker="webpolicy: linting and compiling"

swiftpm build > build1.log 2>&1 || { cat build1.log; fail "the fixture package does not build"; }
grep -q "$marker app.webpolicy.yaml" build1.log || fail "the first build did not run the plugin's command"
resources=$(swiftpm build --show-bin-path)/PolicyApp_PolicyApp.resources
for file in app/policy-app.manifest.json app/policy-app.content-rules.json; do
    [ -f "$resources/$file" ] || fail "the bundle has no $file: $(find "$resources" | tr '\n' ' ')"
done
swiftpm run --skip-build PolicyApp > run.log 2>&1 || { cat run.log; fail "the fixture's executable failed"; }
cat run.log
grep -q "^block script https://tracker.example.net/t.js: content rule 'block-trackers' (shared/trackers.yaml:5) blocks it$" run.log || fail "no block verdict from the compiled policy"
grep -q "^allow image http://legacy.example.com/banner.png: legacy.example.com is on the http-allowlist" run.log || fail "no allow verdict"

# SwiftPM 6.3 links a plugin's tool twice in the first two builds of a fresh package (once
# before planning, once in the build), so the second build of a fresh clone runs the command
# once more; from then on a build with nothing changed must run nothing.
swiftpm build > build2.log 2>&1 || { cat build2.log; fail "the second build failed"; }
if grep -q "$marker" build2.log; then
    grep -q "Linking webpolicy-tool" build2.log || fail "the second build ran the plugin's command without the tool changing"
    echo "swiftpm_plugins: the second build relinked the tool (SwiftPM's first-builds behaviour) and ran the command once more"
fi
swiftpm build > build2b.log 2>&1 || { cat build2b.log; fail "the third build failed"; }
if grep -q "$marker" build2b.log; then fail "a build with nothing changed ran the plugin's command again"; fi
touch "$target/shared/trackers.yaml"
swiftpm build > build3.log 2>&1 || { cat build3.log; fail "the build after touching an included file failed"; }
grep -q "$marker" build3.log || fail "changing an included file did not run the plugin's command"

cp "$broken/broken.webpolicy.yaml" "$target/"
if swiftpm build > broken.log 2>&1; then fail "a broken policy built"; fi
grep -q "$target/broken.webpolicy.yaml:4:1: error: unknown key 'http-alowlist' in the policy; did you mean 'http-allowlist'? \[unknown-key\]" broken.log \
    || { cat broken.log; fail "the failed build does not show the policy's path:line:col and rule id"; }
rm "$target/broken.webpolicy.yaml"

# The target's own code is audited against its policy: code registering a bridge the policy
# does not declare fails the build at its line of Swift.
cp "$broken/Bridge.swift" "$target/"
if swiftpm build > audit.log 2>&1; then cat audit.log; fail "code registering an undeclared bridge built"; fi
grep -q "$target/Bridge.swift:5:5: error: the script message handler 'debugLog' is registered, but bridges: declares no bridge named 'debugLog' \[bridge-undeclared\]" audit.log \
    || { cat audit.log; fail "the failed build does not show the audit's finding at the line of Swift"; }
rm "$target/Bridge.swift"

# Reading needs no permission: the first thing a newcomer types works as typed.
swiftpm package webpolicy lint < /dev/null > lint.log 2>&1 || { cat lint.log; fail "swift package webpolicy lint (no flags) failed"; }
grep -q "no problems in 1 file" lint.log || { cat lint.log; fail "lint did not lint the target's policy"; }
swiftpm package webpolicy simulate < /dev/null > simulate.log 2>&1 || { cat simulate.log; fail "swift package webpolicy simulate (no flags) failed"; }
grep -q "4 passed, 0 failed" simulate.log || { cat simulate.log; fail "simulate did not replay the target's trace"; }

# Writing asks: --fix is the webpolicy-fix plugin's, which SwiftPM refuses without the permission.
cp "$broken/fixable.webpolicy.yaml" "$target/"
# The findings name the plugin's own fix command, not the command line's.
swiftpm package webpolicy lint < /dev/null > findings.log 2>&1 || true
grep -q "(swift package --allow-writing-to-package-directory webpolicy-fix)" findings.log || { cat findings.log; fail "the plugin's findings do not name webpolicy-fix as the way to fix"; }
if swiftpm package webpolicy lint --fix < /dev/null > refused.log 2>&1; then fail "the reading plugin ran lint --fix"; fi
grep -q "webpolicy-fix" refused.log || { cat refused.log; fail "the reading plugin's refusal of --fix does not name webpolicy-fix"; }
if swiftpm package webpolicy-fix < /dev/null > refused2.log 2>&1; then fail "webpolicy-fix ran without the write permission"; fi
grep -q "allow-writing-to-package-directory" refused2.log || { cat refused2.log; fail "the refusal does not say how to allow writing"; }
grep -q "host: Legacy.Example.com" "$target/fixable.webpolicy.yaml" || fail "a refused fix changed the policy"
swiftpm package --allow-writing-to-package-directory webpolicy-fix < /dev/null > fix.log 2>&1 || { cat fix.log; fail "webpolicy-fix failed"; }
grep -q "host: legacy.example.com" "$target/fixable.webpolicy.yaml" || { cat fix.log; fail "webpolicy-fix did not rewrite the policy"; }

echo "swiftpm plugins: the fixture builds with its compiled policy in the bundle and decides with it; an unchanged build does not run the plugin, a changed include does; a broken policy fails the build at its line, and so does code registering an undeclared bridge; the command plugin lints and simulates without flags, and webpolicy-fix fixes only with the write permission"
