#!/usr/bin/env bash
# docs/scale.md's recipe, checked on every CI run: GNU parallel cuts a realistic trace into
# shards at its page lines, `webpolicy simulate -` simulates each shard on its own, and
# `webpolicy merge-summaries` adds the shards' summaries up. Every count must equal a single
# run's over the whole trace (the trace count aside: it counts the shards).
#
# usage: ci/checks/parallel_shards.sh WEBPOLICY SIMULATE_BENCH LIST.json [RULES]
#
# RULES (default 25,000) cuts the list to its first rules: CI runs the debug build, which
# loads all of EasyList + EasyPrivacy in about 18 s per shard; the recipe is what is checked.
set -euo pipefail
webpolicy=$1 bench=$2 whole=$3 rules=${4:-25000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
list="$work/list.json"
python3 -c 'import json, sys; json.dump(json.load(open(sys.argv[1]))[:int(sys.argv[2])], open(sys.argv[3], "w"), indent=0)' "$whole" "$rules" "$list"

# About 60,000 requests (3.3 MB), cut into shards of 1 MB: four shards on two cores.
"$bench" --list "$list" --requests 60000 --write-trace "$work/requests.trace"
"$webpolicy" simulate "$work/requests.trace" --content-rules "$list" --format summary > "$work/single.json"
parallel --will-cite --halt now,fail=1 --pipe --recstart 'page ' --block 1M -j 2 \
    "$webpolicy" simulate - --content-rules "$list" --format summary < "$work/requests.trace" > "$work/shards.jsonl"
"$webpolicy" merge-summaries "$work/shards.jsonl" > "$work/merged.json"

python3 - "$work/single.json" "$work/merged.json" "$work/shards.jsonl" <<'PYTHON'
import json, sys
single = json.load(open(sys.argv[1]))["summary"]
merged = json.load(open(sys.argv[2]))["summary"]
shards = [line for line in open(sys.argv[3]) if line.strip()]
print("single run:", json.dumps(single))
print("%d shards merged:" % len(shards), json.dumps(merged))
if len(shards) < 2:
    sys.exit("parallel made %d shard(s); the check needs several" % len(shards))
if merged["traces"] != len(shards):
    sys.exit("the merged summary counts %d traces for %d shards" % (merged["traces"], len(shards)))
for key in ("requests", "passed", "failed", "unchecked", "verdicts"):
    if single[key] != merged[key]:
        sys.exit("%s: single run %s, shards merged %s" % (key, single[key], merged[key]))
print("the merged summary equals the single run's")
PYTHON
