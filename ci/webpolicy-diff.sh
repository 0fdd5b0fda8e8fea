#!/usr/bin/env bash
# webpolicy-diff.sh — what a change to the policies does, as Markdown for a pull request.
#
#   ci/webpolicy-diff.sh BASE_REV [POLICY_FOLDER ...]      (default folder: policies)
#
# For every policy (*.yaml, *.yml) in the folders that differs from BASE_REV, runs
# `webpolicy diff git:BASE_REV:PATH PATH TRACES --format markdown`, where TRACES are the
# folder's traces that name that policy in their `policy:` header (and those that name none);
# a policy without traces is compared entry by entry. Policies added or removed since
# BASE_REV are listed. Markdown goes to standard output (for $GITHUB_STEP_SUMMARY or a
# comment), the readable report to standard error. Uses $WEBPOLICY, else `webpolicy` on PATH.
# Exit codes: 0 nothing changes, 1 something does, 2 usage or input error.
set -uo pipefail

if [ $# -lt 1 ]; then
    sed -n '2,13p' "$0" >&2
    exit 2
fi
base=$1
shift
folders=("$@")
[ ${#folders[@]} -gt 0 ] || folders=(policies)
webpolicy=${WEBPOLICY:-webpolicy}
if ! git rev-parse --verify --quiet "$base^{commit}" >/dev/null; then
    echo "webpolicy-diff: git knows no revision '$base' (fetch it first: git fetch origin $base)" >&2
    exit 2
fi

# The traces of a folder whose policy: header names the policy (or that name none).
traces_for() {
    local policy=$1 folder=$2 trace header named
    while IFS= read -r -d '' trace; do
        header=$(grep -m1 -E '^[[:space:]]*policy:' "$trace" | sed -E 's/^[[:space:]]*policy:[[:space:]]*//; s/[[:space:]]+$//')
        if [ -z "$header" ]; then
            printf '%s\0' "$trace"
            continue
        fi
        named=$(realpath -m "$(dirname "$trace")/$header")
        [ "$named" = "$(realpath -m "$policy")" ] && printf '%s\0' "$trace"
    done < <(find "$folder" -name '*.trace' -not -path '*/.*' -print0 | sort -z)
}

status=0
changed=()
for folder in "${folders[@]}"; do
    if [ ! -d "$folder" ]; then
        echo "webpolicy-diff: no such folder: $folder" >&2
        exit 2
    fi
    # Policies now, and those the base had that are gone.
    while IFS= read -r -d '' path; do
        git cat-file -e "$base:./$path" 2>/dev/null || { changed+=("added: \`$path\`"); [ $status -ne 0 ] || status=1; continue; }
        # Nothing to say when neither the policy nor anything else in its folder changed.
        git diff --quiet "$base" -- "$folder" && continue
        mapfile -d '' traces < <(traces_for "$path" "$folder")
        markdown=$("$webpolicy" diff "git:$base:./$path" "$path" "${traces[@]}" --format markdown)
        code=$?
        case $code in
            0) ;;
            1) printf '%s\n\n' "$markdown"
               "$webpolicy" diff "git:$base:./$path" "$path" "${traces[@]}" --limit 50 >&2
               [ $status -eq 2 ] || status=1 ;;
            *) echo "webpolicy-diff: webpolicy diff failed on $path" >&2; status=2 ;;
        esac
    done < <(find "$folder" \( -name '*.yaml' -o -name '*.yml' \) -not -path '*/.*' -print0 | sort -z)
    while IFS= read -r path; do
        [ -e "$path" ] || { changed+=("removed: \`$path\`"); [ $status -ne 0 ] || status=1; }
    done < <(git diff --name-only --relative --diff-filter=D "$base" -- "$folder" | grep -E '\.ya?ml$' || true)
done
if [ ${#changed[@]} -gt 0 ]; then
    printf '### webpolicy diff: policies added or removed\n\n'
    printf -- '- %s\n' "${changed[@]}"
fi
[ $status -ne 0 ] || printf '### webpolicy diff\n\nNo policy change changes a request or an entry.\n'
exit $status
