#!/usr/bin/env bash
# Builds every fuzz target with libFuzzer and AddressSanitizer (release, as the targets run),
# into ci/fuzz/.build/release/. Extra arguments go to swift build (--product FuzzURL).
#
# lld links them: gold fails on the sanitizer runtimes' debug info.
set -euo pipefail
cd "$(dirname "$0")"
swift build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld "$@" 2>&1 \
    | grep -vE 'warning: Cannot export local symbol|^\[[0-9]+/[0-9]+\] (Compiling|Write|Emitting)' || true
test "${PIPESTATUS[0]}" -eq 0
