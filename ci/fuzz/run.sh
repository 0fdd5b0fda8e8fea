#!/usr/bin/env bash
# Runs the fuzz targets (built by ci/fuzz/build.sh) for a fixed time each, side by side: one
# target a core (libFuzzer runs one input at a time, so a target never wants more than one).
#
#   ci/fuzz/run.sh [SECONDS_EACH] [TARGET ...]     (default: 30 s, every target)
#
# Each starts from its committed seeds (ci/fuzz/seeds/TARGET) and past findings
# (ci/fuzz/regressions/TARGET), with its dictionary; what it learns goes to a throwaway corpus
# (or to $FUZZ_CORPUS/TARGET, kept between runs, for a long local campaign). A crash, a broken
# invariant, a timeout (10 s an input) or running out of memory (2 GB) fails the run: the
# reproducer is printed in base64 and kept in $FUZZ_ARTIFACTS (default: a temporary folder).
# With FUZZ_RUNS=N each target stops after N executions instead (the time is then a bound).
# FUZZ_JOBS=N runs N targets at a time (default: the number of cores; 1 for one after another).
# Prints one line a target, in the order given: executions, executions a second, corpus size
# (and, for FuzzURLFilter, how many inputs were compared with ICU and how many skipped because
# ICU's backtracking could explode on them).
# Exit 0 all clean, 1 a finding, 2 a target is not built.
set -uo pipefail
cd "$(dirname "$0")"
seconds=${1:-30}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(FuzzURLFilter FuzzPolicy FuzzLintFix FuzzTrace FuzzHAR FuzzContentBlockerList FuzzURL FuzzManifest FuzzEngineImage FuzzAppFiles FuzzLSP)
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || sysctl -n hw.ncpu 2>/dev/null || echo 1)}
# What build.sh built: FUZZ_UNOPTIMISED=1 reads its unoptimised build.
bin=.build/release
[ -z "${FUZZ_UNOPTIMISED:-}" ] || bin=.build-unoptimised/release
artifacts=${FUZZ_ARTIFACTS:-$(mktemp -d)}
mkdir -p "$artifacts"
# libFuzzer reports crashes itself; Swift's backtracer would hold each one up for seconds.
export SWIFT_BACKTRACE=enable=no
# No allocation stacks (a tenth of a run's time): a reproducer run alone gets them back.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=1:malloc_context_size=0}

for target in "${targets[@]}"; do
    if [ ! -x "$bin/$target" ]; then
        echo "fuzz: $target is not built (ci/fuzz/build.sh)" >&2
        exit 2
    fi
done

# One target: its report goes to $results/TARGET.out, its verdict (0 or 1) to TARGET.status.
fuzz_one() {
    local target=$1 out=$results/$1.out
    local corpus=${FUZZ_CORPUS:+$FUZZ_CORPUS/$target}
    corpus=${corpus:-$(mktemp -d)}
    mkdir -p "$corpus" "regressions/$target"
    local log
    log=$(mktemp)
    local started=$SECONDS
    "$bin/$target" "$corpus" "seeds/$target" "regressions/$target" \
        -dict="dictionaries/$target.dict" -max_total_time="$seconds" ${FUZZ_RUNS:+-runs=$FUZZ_RUNS} -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$artifacts/$target-" > "$log" 2>&1
    local code=$?
    local runs speed size
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    size=$(find "$corpus" -type f | wc -l)
    # A target that compares with a reference it may skip (FuzzURLFilter and ICU) says how often.
    local compared skipped extra=""
    compared=$(sed -n 's/^stat::reference_comparisons: *//p' "$log" | tail -1)
    skipped=$(sed -n 's/^stat::reference_comparisons_skipped: *//p' "$log" | tail -1)
    [ -z "$compared" ] || extra="  reference comparisons ${compared}, skipped ${skipped:-0}"
    if [ $code -ne 0 ]; then
        # What libFuzzer said from the finding on: the message, the stack, the reproducer.
        grep -n -m1 -E 'ERROR: libFuzzer|ERROR: AddressSanitizer|invariant broken|Fatal error|==[0-9]+==' "$log" | cut -d: -f1 | {
            read -r first && tail -n +"$((first > 5 ? first - 5 : 1))" "$log" | grep -vE '^    #[0-9]+ 0x[0-9a-f]+ in (fuzzer::|__libc|_start)' | head -80
        } > "$out" || tail -60 "$log" > "$out"
        echo "fuzz: $target FAILED after ${runs:-?} executions; reproducer in $artifacts (run: SWIFT_BACKTRACE=enable=no ci/fuzz/$bin/$target FILE)" >> "$out"
        echo 1 > "$results/$target.status"
    else
        printf 'fuzz: %-24s %9s executions  %6s/s  corpus %5s  (%s s)%s\n' "$target" "${runs:-?}" "${speed:-?}" "$size" "$(( SECONDS - started ))" "$extra" > "$out"
        echo 0 > "$results/$target.status"
    fi
    rm -f "$log"
    [ -n "${FUZZ_CORPUS:-}" ] || rm -rf "$corpus"
}

results=$(mktemp -d)
running=0
for target in "${targets[@]}"; do
    if [ "$running" -ge "$jobs" ]; then
        # bash 4.3's `wait -n` takes the next free core; macOS's bash 3.2 waits for the batch.
        if [ "${BASH_VERSINFO[0]}${BASH_VERSINFO[1]}" -ge 43 ]; then wait -n; running=$((running - 1)); else wait; running=0; fi
    fi
    fuzz_one "$target" &
    running=$((running + 1))
done
wait

status=0
for target in "${targets[@]}"; do
    cat "$results/$target.out"
    [ "$(cat "$results/$target.status" 2>/dev/null)" = 0 ] || status=1
done
rm -rf "$results"
exit $status
