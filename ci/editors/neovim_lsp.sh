#!/usr/bin/env bash
# A real editor against `webpolicy lsp`: Debian's Neovim, headless, set up with the block
# docs/editors.md gives for it (the one marked "neovim-0.7"), opens a policy with mistakes and
# must show what `webpolicy lint --format json` says of it; after an edit that leaves the YAML
# half-typed, what lint says of the new text. Then, as the editor sends them: a hover over a
# finding, completion of a key and of a value, go to definition on an include, the whole file's
# fixes applied as a code action (the text `lint --fix` writes), and a trace's lenses (the
# verdicts `simulate` gives). Usage: neovim_lsp.sh PATH/TO/webpolicy
set -euo pipefail
cd "$(dirname "$0")/../.."
webpolicy=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin"
ln -s "$webpolicy" "$work/bin/webpolicy"
# The block as a reader copies it into init.lua.
python3 - "$work/init.lua" <<'PY'
import re, sys
text = open("docs/editors.md", encoding="utf-8").read()
block = re.search(r"<!-- neovim-0\.7[^>]*-->\s*```lua\n(.*?)```", text, re.S)
if not block:
    sys.exit("docs/editors.md has no block marked neovim-0.7")
open(sys.argv[1], "w").write(block.group(1))
PY
cp Tests/Fixtures/lint/err/webview-security.yaml "$work/policy.yaml"
cp policies/https-and-trackers.yaml "$work/shop.yaml"
sed 's|^policy: .*|policy: shop.yaml|' policies/https-and-trackers.trace > "$work/shop.trace"
cp Tests/Fixtures/fix/every-fix.yaml "$work/fix.yaml"
cp Tests/Fixtures/fix/every-fix.yaml "$work/fixed-by-lint.yaml"
printf 'webpolicy: 1\nname: half\nnavigation:\n  pages:\n    - "*.example.com\n' > "$work/edited.yaml"
cd "$work"
PATH="$work/bin:$PATH" timeout 60 nvim --headless -u init.lua policy.yaml \
    -c "luafile $OLDPWD/ci/editors/neovim_lsp.lua" > nvim.log 2>&1 || { cat nvim.log; exit 1; }
cat nvim.log
PATH="$work/bin:$PATH" webpolicy lint policy.yaml --format json > lint-before.json || true
PATH="$work/bin:$PATH" webpolicy lint edited.yaml --format json > lint-after.json || true
PATH="$work/bin:$PATH" webpolicy simulate shop.trace --format json > simulate.jsonl || true
PATH="$work/bin:$PATH" webpolicy lint --fix fixed-by-lint.yaml > /dev/null 2>&1 || true
python3 - <<'PY'
import json, sys
def lint(path, file):
    # Neovim's columns are bytes of the line; the policies here are ASCII, where they are
    # lint's columns less one.
    found = json.load(open(path))["diagnostics"]
    return sorted((d["rule"], d["severity"], d["line"] - 1, d["column"] - 1, d["message"]) for d in found if d["file"] == file)
def editor(path):
    return sorted(tuple(json.loads(line)) for line in open(path) if line.strip())
for shown, linted, file in [("shown-before.jsonl", "lint-before.json", "policy.yaml"), ("shown-after.jsonl", "lint-after.json", "edited.yaml")]:
    got, want = editor(shown), lint(linted, file)
    if not want:
        sys.exit(f"lint found nothing in {file}: the check would prove nothing")
    if got != want:
        print("neovim showed:", *got, sep="\n  ")
        print("lint says:", *want, sep="\n  ")
        sys.exit(f"{file}: the editor's diagnostics differ from lint's")
    print(f"{file}: {len(got)} diagnostics in Neovim, the same as lint's")
# Each request line's lens says what simulate says of it.
results = [json.loads(line) for line in open("simulate.jsonl") if line.startswith('{"trace"')]
want = sorted(f"{r['line']}\t{r['verdict']}" for r in results)
got = sorted("\t".join([line.split("\t")[0], line.split("\t")[1].split(" ")[0]]) for line in open("lenses.txt") if line.strip())
if not want or got != want:
    print("lenses:", *got, sep="\n  ")
    print("simulate:", *want, sep="\n  ")
    sys.exit("the trace's lenses differ from simulate's verdicts")
print(f"shop.trace: {len(got)} lenses in Neovim, the verdicts simulate gives")
# Hover, completion, definition and a code action, as the editor sent them.
print(open("checks.txt").read(), end="")
checks = dict(line.rstrip("\n").split("\t", 1) for line in open("checks.txt"))
hover, code = checks["hover"].split("\t")
if hover != code:
    sys.exit(f"hover over a {code} finding showed {hover!r}")
keys = checks["keys"].split(",")
if "navigation" not in keys or "name" in keys or "content-rules" in keys:
    sys.exit(f"completion of a top-level key offered {keys}")
if not {"block", "css-display-none", "make-https"} <= set(checks["actions"].split(",")):
    sys.exit(f"completion after 'action: ' offered {checks['actions']}")
if checks["definition"] != "shop.yaml":
    sys.exit(f"definition on the include went to {checks['definition']!r}")
if open("fixed-in-editor.yaml").read().rstrip("\n") != open("fixed-by-lint.yaml").read().rstrip("\n"):
    sys.exit("the editor's fix-all left another text than lint --fix writes")
print("hover, completion, definition and the fix-all code action: as lint and the schema say")
PY
