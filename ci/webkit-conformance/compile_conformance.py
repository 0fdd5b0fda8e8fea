"""Real WebKit against webpolicy, part 1: compiling lists.

usage: compile_conformance.py WEBPOLICY [WORKDIR]

Every content-blocker list webpolicy emits (from policies/, the compile fixtures and the
lint-clean fixtures) must compile in real WebKit. Every list in the import fixtures and every
WebKit test vector (InvalidJSON, ParsingFailures) must get the same verdict from webpolicy's
port of WebKit's parser as from WebKit: both accept it, or both refuse it with the same WebKit
error message. Both verdicts come from one `webpolicy verify --format json` run (WebKitGTK
through the helper webpolicy ships). Prints each disagreement with both verdicts, then the
counts; exits 1 on any disagreement.
"""
import glob
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def write(workdir, name, text):
    path = os.path.join(workdir, name)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
    return path


def collect(webpolicy, workdir):
    """(description, list file, whether WebKit must compile it)."""
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
            cases.append(("compiled " + os.path.relpath(policy, ROOT) + " -> " + os.path.basename(path), path, True))
    for path in sorted(glob.glob(os.path.join(ROOT, "Tests", "Fixtures", "import", "*", "*.json"))):
        cases.append(("list " + os.path.relpath(path, ROOT), path, False))
    vectors = json.load(open(os.path.join(ROOT, "Tests", "Fixtures", "webkit", "invalid-json.json"), encoding="utf-8"))["vectors"]
    for index, vector in enumerate(vectors):
        cases.append(("InvalidJSON #%d %s" % (index + 1, vector["json"][:70]), write(workdir, "invalid-%d.json" % index, vector["json"]), False))
    patterns = json.load(open(os.path.join(ROOT, "Tests", "Fixtures", "webkit", "parsing-failures.json"), encoding="utf-8"))["vectors"]
    for index, vector in enumerate(patterns):
        text = json.dumps([{"trigger": {"url-filter": vector["pattern"]}, "action": {"type": "block"}}])
        cases.append(("ParsingFailures #%d %r" % (index + 1, vector["pattern"]), write(workdir, "pattern-%d.json" % index, text), False))
    return cases


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    webpolicy = os.path.abspath(sys.argv[1])
    workdir = sys.argv[2] if len(sys.argv) == 3 else tempfile.mkdtemp(prefix="webpolicy-conformance-")
    started = time.time()
    cases = collect(webpolicy, workdir)
    result = subprocess.run([webpolicy, "verify", "--format", "json"] + [path for _, path, _ in cases], capture_output=True, text=True)
    if result.returncode not in (0, 1):
        sys.exit("compile_conformance: webpolicy verify failed (%d):\n%s" % (result.returncode, result.stderr[-3000:]))
    entries = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
    if len(entries) != len(cases):
        sys.exit("compile_conformance: %d lists given, %d verdicts back" % (len(cases), len(entries)))

    disagreements = accepted = refused = 0
    for (name, _, must_compile), entry in zip(cases, entries):
        problem = None
        if not entry["agree"]:
            problem = "webpolicy %r, WebKit %r" % (entry["webpolicy"], entry["webkit"])
        elif must_compile and entry["webkit"] is not None:
            problem = "WebKit refuses a list webpolicy emitted: %r" % entry["webkit"]
        if problem:
            disagreements += 1
            print("DISAGREE %s\n  %s" % (name, problem))
        elif entry["webkit"] is None:
            accepted += 1
        else:
            refused += 1
    print("compile conformance: %d lists, %d compiled by WebKit and accepted by webpolicy, %d refused by both with the same error, %d disagreements (%.1f s)"
          % (len(cases), accepted, refused, disagreements, time.time() - started))
    sys.exit(1 if disagreements else 0)


if __name__ == "__main__":
    main()
