#!/usr/bin/env bash
# A real editor against `webpolicy lsp`: Debian's Neovim, headless, set up with the block
# docs/editors.md gives for it (the one marked "neovim-0.7"), opens a policy with mistakes and
# must show what `webpolicy lint --format json` says of it; after an edit that leaves the YAML
# half-typed, what lint says of the new text. Then, as the editor sends them: a hover over a
# finding, completion of a key and of a value, go to definition on an include, the whole file's
# fixes applied as a code action (the text `lint --fix` writes), and a trace's lenses (the
# verdicts `simulate` gives). Last, every policy of the lint fixtures opened in turn: what the
# editor shows of each equals `lint --format json` of it (the whole corpus's parity).
# Usage: neovim_lsp.sh PATH/TO/webpolicy
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)
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
    -c "luafile $repo/ci/editors/neovim_lsp.lua" > nvim.log 2>&1 || { cat nvim.log; exit 1; }
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
if checks["accepted"] != "app-bound-domains: ":
    sys.exit(f"completing 'app-' left {checks['accepted']!r}")
if checks["word"] != "0":
    sys.exit(f"Neovim starts a completion of 'app-' at {checks['word']}: the block must count '-' in a word")
if checks["definition"] != "shop.yaml":
    sys.exit(f"definition on the include went to {checks['definition']!r}")
if open("fixed-in-editor.yaml").read().rstrip("\n") != open("fixed-by-lint.yaml").read().rstrip("\n"):
    sys.exit("the editor's fix-all left another text than lint --fix writes")
print("hover, completion, definition and the fix-all code action: as lint and the schema say")
PY

# The whole lint corpus, each policy opened in the editor as a user opens it. Files that are not
# UTF-8 are left out: the editor converts their bytes (latin1, UTF-16) before the server sees a
# character, so the text linted is not the file's — lint's own fixtures cover those.
cp -R "$repo/Tests/Fixtures/lint" "$work/lint"
cd "$work/lint"
for file in ok/*.yaml err/*.yaml; do
    python3 -c 'import sys; open(sys.argv[1], "rb").read().decode("utf-8")' "$file" 2>/dev/null && echo "$file"
done > fixtures.txt
PATH="$work/bin:$PATH" timeout 600 nvim --headless -u ../init.lua \
    -c "luafile $repo/ci/editors/neovim_parity.lua" > nvim.log 2>&1 || { cat nvim.log; exit 1; }
while read -r file; do
    PATH="$work/bin:$PATH" webpolicy lint "$file" --format json > "$file.lint.json" || true
done < fixtures.txt
python3 - <<'PY'
import json, sys
def byte_column(path, line, column):
    # lint counts columns in Unicode scalars from 1; Neovim in bytes from 0.
    lines = open(path, encoding="utf-8").read().split("\n")
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    # A range may end past its line's last character (an end of file): the count goes on.
    return len(text[:column - 1].encode("utf-8")) + max(column - 1 - len(text), 0)
def lint_keys(fixture):
    keys = {}
    for d in json.load(open(fixture + ".lint.json"))["diagnostics"]:
        here = (d["file"], d["line"] - 1)
        notes = [[n["message"], n["file"] or d["file"], (n["line"] or d["line"]) - 1] for n in d["notes"]]
        if d["hint"]:
            notes.append(["hint: " + d["hint"], *here])
        key = [d["rule"], d["severity"], d["line"] - 1, byte_column(d["file"], d["line"], d["column"]),
               d["endLine"] - 1, byte_column(d["file"], d["endLine"], d["endColumn"]), d["message"]]
        keys.setdefault(d["file"], []).append(json.dumps([key, sorted(notes)]))
    return {file: sorted(found) for file, found in keys.items()}
records = [json.loads(line) for line in open("parity.jsonl")]
fixtures = [line.strip() for line in open("fixtures.txt") if line.strip()]
if [r["fixture"] for r in records] != fixtures:
    sys.exit("Neovim did not open every fixture")
left_alone, failed, findings = [], [], 0
for record in records:
    fixture = record["fixture"]
    want = lint_keys(fixture)
    if not record["published"]:
        # The server leaves a file alone only when it is no policy; lint, told to, reads it.
        left_alone.append(fixture)
        continue
    shown = {}
    for d in record["diagnostics"]:
        shown.setdefault(d["file"], []).append(json.dumps([d["key"], sorted(d["notes"])]))
    for file in set(want) | {fixture}:
        got, expected = sorted(shown.get(file, [])), want.get(file, [])
        findings += len(expected)
        if got != expected:
            failed.append(fixture)
            print(f"{fixture} ({file}):", "  neovim showed:", *got, "  lint says:", *expected, sep="\n    ")
if failed:
    sys.exit(f"the editor's diagnostics differ from lint's on {len(set(failed))} fixtures: {sorted(set(failed))}")
# Without a top-level `webpolicy:` key (or a *.webpolicy.yaml name) a YAML file is another
# tool's, as `lint` tells in a folder; these fixtures are such files, linted because named.
no_policy = {
    "err/file-comments-only.yaml": "comments only",
    "err/file-empty.yaml": "empty",
    "err/missing-version.yaml": "a policy without its webpolicy: key, which is what tells one",
    "err/root-not-mapping.yaml": "a list at the top",
}
if left_alone != sorted(no_policy):
    sys.exit(f"the server left {left_alone} alone; only {sorted(no_policy)} have no policy in them")
print(f"lint corpus: {len(records) - len(left_alone)} policies opened in Neovim, {findings} findings, "
      f"each as lint --format json says it ({len(left_alone)} files with no policy in them left alone, as the server leaves other YAML)")
PY
