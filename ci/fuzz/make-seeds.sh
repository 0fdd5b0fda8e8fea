#!/usr/bin/env bash
# Rebuilds the seed corpora in ci/fuzz/seeds/ from the repository's fixtures and example
# policies: small inputs that already reach deep into each parser. Needs a built webpolicy
# (WEBPOLICY, default ../../.build/debug/webpolicy) for the manifests. The seeds are committed;
# run this when the fixtures change a lot, and review what it adds.
set -euo pipefail
cd "$(dirname "$0")"
root=../..
webpolicy=${WEBPOLICY:-$root/.build/debug/webpolicy}
rm -rf seeds
mkdir -p seeds/{FuzzPolicy,FuzzLintFix,FuzzTrace,FuzzHAR,FuzzContentBlockerList,FuzzURL,FuzzManifest,FuzzURLFilter}

# Files under 8 KB, named by their content's hash so a seed set has no duplicates.
keep() {
    local target=$1 file=$2
    [ "$(wc -c < "$file")" -le 8192 ] || return 0
    cp "$file" "seeds/$target/$(sha1sum "$file" | cut -c1-16)"
}
while IFS= read -r file; do keep FuzzPolicy "$file"; keep FuzzLintFix "$file"; done < <(find "$root/policies" "$root/Tests/Fixtures/lint" "$root/Tests/Fixtures/fix" -name '*.yaml' | sort)
while IFS= read -r file; do keep FuzzTrace "$file"; done < <(find "$root/policies" "$root/Tests/Fixtures/simulate" -name '*.trace' | sort)
# HAR captures are large; their first two entries make a seed that keeps every part of the format.
while IFS= read -r file; do
    python3 -c 'import json, sys; har = json.load(open(sys.argv[1])); har["log"]["entries"] = har["log"]["entries"][:2]; print(json.dumps(har, indent=1))' "$file" > "$file.seed"
    keep FuzzHAR "$file.seed"
    rm -f "$file.seed"
done < <(find "$root/Tests/Fixtures" -name '*.har' | sort)
while IFS= read -r file; do keep FuzzContentBlockerList "$file"; done < <(find "$root/Tests/Fixtures/import" "$root/Tests/Fixtures/simulate/lists" -name '*.json' | sort)

# URLs: every distinct URL of the example traces, one per seed.
grep -hoE '[a-zA-Z][a-zA-Z0-9+.-]*:[^ ]+' "$root"/policies/*.trace | grep -v '^policy:' | sort -u | while IFS= read -r url; do
    printf '%s' "$url" > "seeds/FuzzURL/$(printf '%s' "$url" | sha1sum | cut -c1-16)"
done

# url-filters: each pattern of the example policies, then URLs of the traces to match it on.
urls=$(grep -hoE 'https?://[^ ]+' "$root"/policies/*.trace | sort -u | head -6)
grep -hE "^\s*url-filter:" "$root"/policies/*.yaml "$root"/Tests/Fixtures/lint/ok/*.yaml 2>/dev/null | sed -E "s/^\s*url-filter:\s*//; s/^'(.*)'$/\1/; s/^\"(.*)\"$/\1/" | sort -u | while IFS= read -r pattern; do
    printf '%s\n%s' "$pattern" "$urls" > "seeds/FuzzURLFilter/$(printf '%s' "$pattern" | sha1sum | cut -c1-16)"
done

# Manifests: what compile writes for each example policy.
out=$(mktemp -d)
for policy in "$root"/policies/*.yaml; do
    "$webpolicy" compile "$policy" --output "$out/$(basename "$policy" .yaml)" > /dev/null
done
find "$out" -name '*.manifest.json' | sort | while IFS= read -r file; do keep FuzzManifest "$file"; done
rm -rf "$out"

for target in seeds/*; do echo "$(ls "$target" | wc -l) seeds in $target"; done
