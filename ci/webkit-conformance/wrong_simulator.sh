#!/usr/bin/env bash
# A webpolicy that gets the third line of every trace wrong (allow or upgrade becomes block).
# CI runs the replay against it to show the harness catches a simulator that disagrees with
# WebKit: it must exit 1 with DISAGREE lines. usage: WEBPOLICY=path wrong_simulator.sh ARGS...
set -o pipefail
"${WEBPOLICY:?set WEBPOLICY to the real binary}" "$@" \
    | sed '/"line":3,/ s/"verdict":"allow"/"verdict":"block"/; /"line":3,/ s/"verdict":"upgrade"/"verdict":"block"/'
