#!/usr/bin/env bash
# Builds every fuzz target with libFuzzer and AddressSanitizer (release, as the targets run),
# into ci/fuzz/.build/release/. Extra arguments go to swift build (--product FuzzURL).
#
# lld links them: gold fails on the sanitizer runtimes' debug info.
#
# FUZZ_UNOPTIMISED=1 (CI) builds them without optimisation (-Onone, into .build-unoptimised/,
# which run.sh then reads): about a third of the compile (97 CPU seconds against 324 on the
# 2-core machine) for two to four times fewer executions a second, which a short pass of every
# target can spare and a campaign cannot. A release configuration still, with -Onone last: a
# debug build renames the targets' `main`, and the link then takes libFuzzer's own.
set -euo pipefail
cd "$(dirname "$0")"
unoptimised=()
[ -z "${FUZZ_UNOPTIMISED:-}" ] || unoptimised=(-Xswiftc -Onone --build-path .build-unoptimised)
swift build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld ${unoptimised[@]+"${unoptimised[@]}"} "$@" 2>&1 \
    | grep -vE 'warning: Cannot export local symbol|^\[[0-9]+/[0-9]+\] (Compiling|Write|Emitting)' || true
test "${PIPESTATUS[0]}" -eq 0
