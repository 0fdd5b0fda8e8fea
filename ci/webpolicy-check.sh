#!/usr/bin/env bash
# webpolicy-check.sh — lint web-view policies and replay their traces, in any CI.
#
#   ci/webpolicy-check.sh [POLICY_FOLDER ...]      (default: policies)
#
# Uses $WEBPOLICY, else `webpolicy` on PATH, else builds this checkout (swift build -c
# release) when the script runs from it. Exit codes: 0 clean, 1 a lint error or a failed
# expectation, 2 usage or input error (webpolicy's own codes).
set -euo pipefail

folders=("$@")
[ ${#folders[@]} -gt 0 ] || folders=(policies)

webpolicy=${WEBPOLICY:-}
if [ -z "$webpolicy" ] && command -v webpolicy >/dev/null 2>&1; then
    webpolicy=$(command -v webpolicy)
fi
if [ -z "$webpolicy" ]; then
    checkout=$(cd "$(dirname "$0")/.." && pwd)
    if [ ! -f "$checkout/Package.swift" ]; then
        echo "webpolicy-check: no webpolicy on PATH and no checkout to build; set WEBPOLICY" >&2
        exit 2
    fi
    swift build -c release --package-path "$checkout" >&2
    webpolicy="$checkout/.build/release/webpolicy"
fi

status=0
for folder in "${folders[@]}"; do
    if [ ! -d "$folder" ]; then
        echo "webpolicy-check: no such folder: $folder" >&2
        exit 2
    fi
    echo "== webpolicy lint $folder"
    "$webpolicy" lint "$folder" || status=$?
    if find "$folder" -name '*.trace' -not -path '*/.*' | grep -q .; then
        echo "== webpolicy simulate $folder"
        "$webpolicy" simulate "$folder" || { code=$?; [ $status -ne 0 ] || status=$code; }
    fi
    [ $status -ne 2 ] || exit 2
done
exit $status
