#!/usr/bin/env bash
# Builds webpolicy's release for this platform and packages it (docs/install.md):
#
#   bash ci/release/build.sh [--tag] OUT
#
# writes into OUT
#   webpolicy-VERSION-PLATFORM.tar.gz (+ .sha256)  the binary alone, in webpolicy-VERSION-PLATFORM/bin/
#   webpolicy.artifactbundle.zip (+ .sha256)       SE-0305 bundle for SwiftPM's binaryTarget; its
#                                                  checksum is `swift package compute-checksum`'s
#   webpolicy-plugins/                             the plugins-only package, its binaryTarget
#                                                  pointing at this release's bundle by URL and checksum
# PLATFORM is x86_64-unknown-linux-gnu (or aarch64-…) on Linux, universal-apple-macosx on a Mac.
# On Linux the Swift runtime and Foundation are linked in (--static-swift-stdlib): the binary
# needs only the system's C and C++ libraries, and nothing beside it (the Public Suffix List and
# the WebKitGTK helper are compiled in).
#
# --tag: once built, tag HEAD `vVERSION` (VERSION is what the binary's --version prints, from
# Sources/WebPolicyKit/Version.swift): the tag the release workflow publishes and the docs pin.
# It refuses a tree with uncommitted changes and a tag that names another commit.
#
# It builds in .build-release (WEBPOLICY_RELEASE_BUILD_PATH): objects compiled for a static link
# cannot be linked dynamically, nor the other way round, so it shares no folder with `swift
# build`. WEBPOLICY_RELEASE_CONFIGURATION=debug packages a debug build instead (CI, which checks
# the packaging inside its time budget; a debug bundle is not for publishing). WEBPOLICY_RELEASE_URL is where the release's files are downloaded from
# (default: the repository's GitHub release of the tag).
# WEBPOLICY_RELEASE_RELINK=1 (Linux; CI, with WEBPOLICY_RELEASE_BUILD_PATH=.build) links the
# objects a plain `swift build` compiled for a dynamic link statically instead: what their
# autolink entries name is the toolchain's shared libraries, so every static library of the
# toolchain is named on the link, in one group, and the linker takes what is used. Seconds of
# linking instead of a second build of everything (minutes); the release workflow builds the
# static way from the start.
set -euo pipefail
tag=false
if [ "${1:-}" = "--tag" ]; then tag=true; shift; fi
[ $# -eq 1 ] || { sed -n '2,24p' "$0" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
mkdir -p "$1"
out=$(cd "$1" && pwd)
configuration=${WEBPOLICY_RELEASE_CONFIGURATION:-release}
build_path=${WEBPOLICY_RELEASE_BUILD_PATH:-.build-release}
cd "$repo"

commit=$(git rev-parse HEAD)
dirty=false
[ -z "$(git status --porcelain --untracked-files=no)" ] || dirty=true
if $tag && $dirty; then
    echo "build.sh: the tree has uncommitted changes: commit them before tagging a release" >&2
    exit 1
fi
export WEBPOLICY_BUILD_COMMIT=$commit$($dirty && echo -dirty || true)

case "$(uname -s)" in
    Linux)
        platform=$(uname -m)-unknown-linux-gnu
        relink=()
        if [ -n "${WEBPOLICY_RELEASE_RELINK:-}" ]; then
            resources=$(swift -print-target-info | sed -n 's/.*"runtimeResourcePath": "\(.*\)".*/\1/p')
            relink=(-Xlinker --start-group)
            for library in "${resources}_static/linux"/lib*.a; do
                name=$(basename "$library" .a)
                relink+=(-Xlinker "-l${name#lib}")
            done
            relink+=(-Xlinker --end-group)
            [ ${#relink[@]} -gt 4 ] || { echo "build.sh: no static libraries in ${resources}_static/linux" >&2; exit 1; }
        fi
        swift build -c "$configuration" --build-path "$build_path" --product webpolicy --static-swift-stdlib ${relink[@]+"${relink[@]}"}
        binary=$(swift build -c "$configuration" --build-path "$build_path" --show-bin-path)/webpolicy
        # Only the system's C and C++ libraries: no libswift*, libFoundation*, libdispatch.
        if ldd "$binary" | awk '{print $1}' | grep -v -E '^(linux-vdso\.so|/lib.*/ld-linux.*\.so|lib(c|m|dl|rt|pthread|util|stdc\+\+|gcc_s)\.so)'; then
            echo "build.sh: $binary links the libraries above, beyond the system's C and C++ ones" >&2
            exit 1
        fi
        ;;
    Darwin)
        platform=universal-apple-macosx
        swift build -c "$configuration" --build-path "$build_path" --product webpolicy --arch arm64 --arch x86_64
        binary=$(swift build -c "$configuration" --build-path "$build_path" --arch arm64 --arch x86_64 --show-bin-path)/webpolicy
        ;;
    *) echo "build.sh: no release for $(uname -s)" >&2; exit 1 ;;
esac

version=$("$binary" --version | cut -d' ' -f1)
name=webpolicy-$version-$platform
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/$name/bin"
cp "$binary" "$stage/$name/bin/webpolicy"
# Symbols are for debugging this build, not for running it: a quarter of the size.
case "$platform" in *apple*) strip -rSTx "$stage/$name/bin/webpolicy" ;; *) strip "$stage/$name/bin/webpolicy" ;; esac

# Reproducible for the same binary: sorted entries, one time stamp, no owner.
tarball=$out/$name.tar.gz
tar -C "$stage" --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -cf - "$name" | gzip -n > "$tarball"
(cd "$out" && sha256sum "$name.tar.gz" > "$name.tar.gz.sha256")

bundle=$out/webpolicy.artifactbundle.zip
python3 "$here/artifact_bundle.py" "$bundle" "$tarball"
checksum=$(swift package compute-checksum "$bundle")
echo "$checksum" > "$bundle.sha256"

repository=$(sed -n 's/.*static let repository = "\(.*\)".*/\1/p' Sources/WebPolicyKit/Version.swift)
url=${WEBPOLICY_RELEASE_URL:-$repository/releases/download/v$version}/webpolicy.artifactbundle.zip
python3 "$here/plugins_package.py" "$out/webpolicy-plugins" --url "$url" --checksum "$checksum"

if $tag; then
    if existing=$(git rev-parse -q --verify "refs/tags/v$version^{commit}"); then
        [ "$existing" = "$commit" ] || { echo "build.sh: v$version already tags $existing: bump WebPolicyVersion.current" >&2; exit 1; }
    else
        git tag -a "v$version" -m "webpolicy $version" "$commit"
    fi
    echo "tagged v$version at $commit (push it: git push origin v$version)"
fi
echo "webpolicy $version ($configuration, $platform, commit $WEBPOLICY_BUILD_COMMIT) in $out:"
(cd "$out" && ls -l "$name.tar.gz" "$name.tar.gz.sha256" webpolicy.artifactbundle.zip webpolicy.artifactbundle.zip.sha256 | awk '{print "  " $5 "\t" $9}')
