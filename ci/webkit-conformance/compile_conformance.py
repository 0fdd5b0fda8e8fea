"""Real WebKit against webpolicy, part 1: compiling lists.

usage: compile_conformance.py WEBPOLICY [WORKDIR]

Every content-blocker list webpolicy emits (from policies/, the compile fixtures and the
lint-clean fixtures) must compile in real WebKit (WebKitGTK, through webkit_compile.py). Every
list in the fixtures and every WebKit test vector (InvalidJSON, ParsingFailures) must get the
same verdict from webpolicy's port of WebKit's parser (`webpolicy import`) as from WebKit:
both accept it, or both refuse it with the same WebKit error message. Prints a line per
disagreement with both verdicts, then the counts; exits 1 on any disagreement.
"""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
# `(WebKit: JSONInvalidRegex, "Invalid or unsupported regular expression.") [import-…]`; the
# message is WebKit's text as is, quotes included.
WEBKIT_ERROR = re.compile(r'\(WebKit: (\w+), "(.*?)"\) \[import-')


def block(pattern):
    return json.dumps([{"trigger": {"url-filter": pattern}, "action": {"type": "block"}}])


def collect(webpolicy, workdir):
    """(id, list text, what webpolicy must say: 'accept' or None to ask `webpolicy import`)."""
    cases = []
    policies = sorted(glob.glob(os.path.join(ROOT, "policies", "*.yaml")))
    policies += sorted(glob.glob(os.path.join(ROOT, "Tests", "Fixtures", "compile", "*.yaml")))
    policies += sorted(glob.glob(os.path.join(ROOT, "Tests", "Fixtures", "lint", "ok", "*.yaml")))
    for index, policy in enumerate(policies):
        output = os.path.join(workdir, "compiled-%d" % index)
        result = subprocess.run([webpolicy, "compile", policy, "--output", output], capture_output=True, text=True)
        if result.returncode != 0:
            sys.exit("compile_conformance: webpolicy compile %s failed:\n%s%s" % (policy, result.stdout, result.stderr))
        for path in sorted(glob.glob(os.path.join(output, "*.content-rules*.json"))):
            cases.append(("compiled " + os.path.relpath(policy, ROOT) + " -> " + os.path.basename(path), open(path, encoding="utf-8").read(), "accept"))
    for path in sorted(glob.glob(os.path.join(ROOT, "Tests", "Fixtures", "import", "*", "*.json"))):
        cases.append(("list " + os.path.relpath(path, ROOT), open(path, encoding="utf-8").read(), None))
    vectors = json.load(open(os.path.join(ROOT, "Tests", "Fixtures", "webkit", "invalid-json.json"), encoding="utf-8"))["vectors"]
    for index, vector in enumerate(vectors):
        cases.append(("InvalidJSON #%d %s" % (index + 1, vector["json"][:60]), vector["json"], None))
    patterns = json.load(open(os.path.join(ROOT, "Tests", "Fixtures", "webkit", "parsing-failures.json"), encoding="utf-8"))["vectors"]
    for index, vector in enumerate(patterns):
        cases.append(("ParsingFailures #%d %r" % (index + 1, vector["pattern"]), block(vector["pattern"]), None))
    return cases


def webpolicy_verdict(webpolicy, text, workdir):
    """What webpolicy's parser port says: ('accept', None) or ('refuse', WebKit's message)."""
    path = os.path.join(workdir, "case.json")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
    result = subprocess.run([webpolicy, "import", path, "--force", "--output", os.path.join(workdir, "case.yaml")], capture_output=True, text=True)
    if result.returncode == 0:
        return ("accept", None)
    errors = WEBKIT_ERROR.findall(result.stdout + result.stderr)
    if not errors:
        sys.exit("compile_conformance: webpolicy import refused a list without naming WebKit's error:\n" + result.stdout + result.stderr)
    # webpolicy reports every failing rule; WebKit stops at the first error. WebKit parses the
    # whole list (ContentExtensionParser) before it compiles any url-filter
    # (ContentExtensionCompiler), so a url-filter error is the first only when no rule has a
    # parse error.
    parse_errors = [error for error in errors if error[0] != "JSONInvalidRegex"]
    first = (parse_errors or errors)[0]
    return ("refuse", first[1])


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    webpolicy = os.path.abspath(sys.argv[1])
    workdir = sys.argv[2] if len(sys.argv) == 3 else tempfile.mkdtemp(prefix="webpolicy-conformance-")
    started = time.time()
    cases = collect(webpolicy, workdir)
    requests = [{"id": index, "json": text} for index, (_, text, _) in enumerate(cases)]
    result = subprocess.run(["/usr/bin/python3", os.path.join(HERE, "webkit_compile.py")], input=json.dumps(requests),
                            capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit("compile_conformance: WebKit could not be run:\n" + result.stderr[-2000:])
    webkit = {entry["id"]: entry for entry in json.loads(result.stdout)}

    disagreements = 0
    accepted = refused = 0
    for index, (name, text, expected) in enumerate(cases):
        real = webkit[index]
        real_verdict = ("accept", None) if real["ok"] else ("refuse", real["error"])
        ours = ("accept", None) if expected == "accept" else webpolicy_verdict(webpolicy, text, workdir)
        if ours != real_verdict:
            disagreements += 1
            print("DISAGREE %s\n  webpolicy: %s\n  WebKit:    %s" % (name, ours, real_verdict))
        elif real["ok"]:
            accepted += 1
        else:
            refused += 1
    print("compile conformance: %d lists, %d compiled by WebKit and accepted by webpolicy, %d refused by both with the same error, %d disagreements (%.1f s)"
          % (len(cases), accepted, refused, disagreements, time.time() - started))
    sys.exit(1 if disagreements else 0)


if __name__ == "__main__":
    main()
