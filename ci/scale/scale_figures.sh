#!/usr/bin/env bash
# docs/scale.md's figures, measured again: one process, GNU parallel (2 MB blocks, 2 at a time)
# and the Spark recipe (local[2], 2 MB splits), each with the list's engine cached (one warm
# cache shared by every shard) and built by each shard (--no-cache); three runs each, the
# median, in seconds; then each way's summary, which must all give the same counts.
#
# usage: ci/scale/scale_figures.sh STATIC_WEBPOLICY TRACE LIST.json
#
# STATIC_WEBPOLICY: the release binary (ci/release/build.sh OUT, then the tarball's bin/webpolicy).
# TRACE: e.g. webpolicy-simulate-bench --list LIST.json --requests 200000 --write-trace day.trace
# Needs GNU parallel, bc, Java 11+ and pyspark.
set -euo pipefail
absolute() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
[ $# -eq 3 ] || { sed -n '2,12p' "$0" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
wp=$(absolute "$1") trace=$(absolute "$2") list=$(absolute "$3")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
cp "$list" easy.json
cp "$trace" day.trace
cache="$work/cache"
"$wp" simulate day.trace --content-rules easy.json --format summary --cache-dir "$cache" > /dev/null

# Seconds one command takes; its output kept in out.json.
seconds() {
    local start end
    start=$(date +%s.%N)
    "$@" > out.json 2> err.txt || { echo "failed: $*" >&2; tail -5 err.txt >&2; exit 1; }
    end=$(date +%s.%N)
    echo "$end - $start" | bc
}
median() { sort -n | sed -n 2p; }

for mode in cached built; do
    if [ $mode = cached ]; then option="--cache-dir $cache"; else option="--no-cache"; fi
    one=$(for _ in 1 2 3; do seconds "$wp" simulate day.trace --content-rules easy.json --format summary $option; done | median)
    cp out.json "one-$mode.json"
    shards=$(for _ in 1 2 3; do seconds bash -c "set -o pipefail; parallel --will-cite --halt now,fail=1 --pipe --recstart 'page ' --block 2M -j 2 '$wp' simulate - --content-rules easy.json --format summary $option < day.trace | '$wp' merge-summaries"; done | median)
    cp out.json "parallel-$mode.json"
    spark=$(for _ in 1 2 3; do seconds python3 "$here/spark_pipe.py" --master 'local[2]' --webpolicy "$wp" --ship easy.json --split-mb 2 day.trace -- --content-rules easy.json $option; done | median)
    cp out.json "spark-$mode.json"
    printf 'engine %-6s  one process %6.2f s   GNU parallel %6.2f s   Spark %6.2f s\n' "$mode" "$one" "$shards" "$spark"
done
for way in one parallel spark; do
    for mode in cached built; do echo "$way, $mode: $(tr -d '\n' < "$way-$mode.json")"; done
done
