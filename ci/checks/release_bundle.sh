#!/usr/bin/env bash
# The release as a team installs it (docs/install.md), from a folder ci/release/build.sh wrote:
#
#   ci/checks/release_bundle.sh OUT REFERENCE_WEBPOLICY
#
#  1. the artifact bundle's info.json is SE-0305's and the checksums match (check_bundle.py),
#     and the check refuses a bundle whose info.json is not;
#  2. the binary, copied alone into an empty folder and run with a bare environment, lints,
#     compiles, simulates, explains and audits Swift exactly as REFERENCE_WEBPOLICY (the build
#     the tests used) does, and links only the system's C and C++ libraries;
#  3. an app package using the plugins-only package (ci/release/plugins, the bundle copied in)
#     builds with its policy compiled and its code audited by the prebuilt binary, compiling no
#     webpolicy; fails at code registering an undeclared bridge, at its line of Swift; and lints
#     with the command plugin;
#  4. the publishable plugins package names the bundle by URL and this checksum, with files,
#     not links.
set -euo pipefail
out=$(cd "$1" && pwd)
reference=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"; rm -f "$repo/ci/release/plugins/webpolicy.artifactbundle.zip"' EXIT
fail() { echo "release_bundle: $*" >&2; exit 1; }

echo "-- 1. the bundle and its checksums"
python3 "$repo/ci/release/check_bundle.py" "$out"
mkdir "$work/tampered"
cp "$out"/webpolicy-*.tar.gz "$out"/webpolicy-*.tar.gz.sha256 "$work/tampered/"
(cd "$work/tampered" && unzip -q "$out/webpolicy.artifactbundle.zip" \
    && sed -i 's/"schemaVersion": "1.0"/"schemaVersion": "2.0"/' webpolicy.artifactbundle/info.json \
    && zip -qr webpolicy.artifactbundle.zip webpolicy.artifactbundle \
    && sha256sum webpolicy.artifactbundle.zip | cut -d' ' -f1 > webpolicy.artifactbundle.zip.sha256)
if python3 "$repo/ci/release/check_bundle.py" "$work/tampered" 2> "$work/tampered.txt"; then fail "check_bundle.py passed a bundle with schemaVersion 2.0"; fi
grep -q 'schemaVersion' "$work/tampered.txt" || { cat "$work/tampered.txt"; fail "the refusal does not name schemaVersion"; }

echo "-- 2. the binary alone, in a bare environment"
mkdir "$work/alone" "$work/unpacked"
tar -xzf "$out"/webpolicy-*.tar.gz -C "$work/unpacked"
cp "$work"/unpacked/*/bin/webpolicy "$work/alone/webpolicy"
[ "$(ls -A "$work/alone")" = webpolicy ] || fail "the folder holds more than the binary"
if ldd "$work/alone/webpolicy" | awk '{print $1}' | grep -v -E '^(linux-vdso\.so|/lib.*/ld-linux.*\.so|lib(c|m|dl|rt|pthread|util|stdc\+\+|gcc_s)\.so)'; then
    fail "the binary links the libraries above, beyond the system's C and C++ ones"
fi
cp -R "$repo/policies" "$repo/Tests/Fixtures/audit" "$work/"
cd "$work"
same() {  # same EXPECTED_STATUS ARGUMENTS…: the bare binary and the reference agree, byte for byte
    local expected=$1 status=0 reference_status=0; shift
    env -i PATH=/usr/bin:/bin HOME="$work" "$work/alone/webpolicy" "$@" > bare.out 2> bare.err || status=$?
    "$reference" "$@" > reference.out 2> reference.err || reference_status=$?
    [ "$status" = "$expected" ] || { cat bare.out bare.err; fail "webpolicy $* exited $status in a bare environment, not $expected"; }
    [ "$reference_status" = "$expected" ] || fail "the reference webpolicy $* exited $reference_status"
    cmp -s bare.out reference.out || { diff bare.out reference.out | head -20; fail "webpolicy $*: the bare binary's output differs"; }
}
same 0 lint policies
same 0 compile policies/https-and-trackers.yaml --output "$work/compiled"
[ -f "$work/compiled/https-and-trackers.content-rules.json" ] || fail "compile wrote no content-rule list"
same 0 simulate policies/*.trace
# Third-party decisions read the Public Suffix List, compiled into the binary.
same 0 explain --policy policies/https-and-trackers.yaml --type script --top https://news.example.com/ https://cdn.tracker.example.net/t.js
grep -q "third-party" bare.out || { cat bare.out; fail "explain did not decide first or third party"; }
same 1 audit --policy audit/swift-shop/policy.yaml audit/swift-shop/app
grep -q "bridge-undeclared" bare.out || fail "the bare binary's audit of Swift found no undeclared bridge"
"$work/alone/webpolicy" --version | grep -E -q '^[0-9]+\.[0-9]+\.[0-9]+ \(commit [0-9a-f]{40}' || fail "--version does not name the commit: $("$work/alone/webpolicy" --version)"

echo "-- 3. an app package with the plugins-only package: no webpolicy built"
cp "$out/webpolicy.artifactbundle.zip" "$repo/ci/release/plugins/"
ln -s "$repo/ci/release/plugins" "$work/webpolicy-plugins"
cp -R "$repo/Tests/Fixtures/swiftpm/BinaryPluginsApp" "$work/BinaryPluginsApp"
cd "$work/BinaryPluginsApp"
target=Sources/BinaryPluginsApp
start=$SECONDS
swift build > build.log 2>&1 || { cat build.log; fail "the app package does not build with the prebuilt plugins"; }
echo "release_bundle: the app package's first build took $((SECONDS - start)) s"
grep -q "webpolicy: linting and compiling app.webpolicy.yaml" build.log || { cat build.log; fail "the build plugin did not compile the policy"; }
grep -q "webpolicy: auditing BinaryPluginsApp's code" build.log || { cat build.log; fail "the build plugin did not audit the code"; }
if grep -E "Compiling (webpolicy|WebPolicyKit|Yams|SwiftSyntax|SwiftParser|ArgumentParser) " build.log; then fail "the app's build compiled webpolicy or its dependencies"; fi
swift run --skip-build BinaryPluginsApp > run.log 2>&1 || { cat run.log; fail "the app did not run"; }
grep -q "^binary-plugins-app: binary-plugins-app-[0-9a-f]* binary-plugins-app.content-rules.json 1 rules$" run.log || { cat run.log; fail "the app's bundle lacks the compiled list"; }
cp "$repo/Tests/Fixtures/swiftpm/PolicyApp/broken/Bridge.swift" "$target/"
if swift build > audit.log 2>&1; then cat audit.log; fail "code registering an undeclared bridge built"; fi
grep -q "$target/Bridge.swift:5:5: error: the script message handler 'debugLog' is registered, but bridges: declares no bridge named 'debugLog' \[bridge-undeclared\]" audit.log \
    || { cat audit.log; fail "the failed build does not show the audit's finding at the line of Swift"; }
rm "$target/Bridge.swift"
swift package webpolicy lint < /dev/null > lint.log 2>&1 || { cat lint.log; fail "swift package webpolicy lint failed"; }
grep -q "no problems in 1 file" lint.log || { cat lint.log; fail "the command plugin did not lint the policy"; }
swift package webpolicy simulate < /dev/null > simulate.log 2>&1 || { cat simulate.log; fail "swift package webpolicy simulate failed"; }
grep -q "4 passed, 0 failed" simulate.log || { cat simulate.log; fail "the command plugin did not replay the trace"; }

echo "-- 4. the publishable plugins package"
published=$out/webpolicy-plugins
[ -z "$(find "$published" -type l)" ] || fail "the publishable package holds links: $(find "$published" -type l)"
grep -q "url: \"https://[^\"]*/webpolicy.artifactbundle.zip\", checksum: \"$(cat "$out/webpolicy.artifactbundle.zip.sha256")\"" "$published/Package.swift" \
    || fail "the publishable Package.swift does not name the bundle by URL and this checksum"
(cd "$published" && swift package dump-package > /dev/null) || fail "the publishable Package.swift does not load"
echo "release bundle: SE-0305 bundle and checksums; the binary alone, in a bare environment, agrees with the tests' build; an app builds with the prebuilt plugins, compiling no webpolicy, and fails at an undeclared bridge's line"
