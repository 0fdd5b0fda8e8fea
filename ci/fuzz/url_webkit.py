#!/usr/bin/python3
"""The URL fuzz target's corpus, parsed by webpolicy and by a real WebKit, compared.

usage: python3 ci/fuzz/url_webkit.py CORPUS_DIR [CORPUS_DIR ...]

FuzzURL (built by ci/fuzz/build.sh) runs every input of the folders once (-runs=0) and writes
its canonical form (FUZZ_URL_ANSWERS); WebKitGTK parses the same strings with `new URL()`
(ci/webkit-conformance/webkit_urls.py, under xvfb-run) — the WTF::URLParser that hands content
rules their URL. Inputs are text as the target reads them (invalid UTF-8 repaired). Prints the
counts and every disagreement; exit 0 when they all agree, 1 when one does not, 2 on errors.

For a long campaign: FUZZ_CORPUS=DIR ci/fuzz/run.sh 3600 FuzzURL, then this on DIR/FuzzURL
(docs/fuzzing.md has the last one).
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TARGET = os.path.join(HERE, ".build", "release", "FuzzURL")
WEBKIT_URLS = os.path.join(ROOT, "ci", "webkit-conformance", "webkit_urls.py")


def webpolicy_answers(folders, scratch):
    path = os.path.join(scratch, "webpolicy.jsonl")
    environment = dict(os.environ, FUZZ_URL_ANSWERS=path, SWIFT_BACKTRACE="enable=no",
                       ASAN_OPTIONS="detect_leaks=0")
    run = subprocess.run([TARGET, "-runs=0"] + folders, env=environment,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if run.returncode != 0:
        sys.stderr.write(run.stderr[-4000:])
        print("url_webkit: FuzzURL failed on the corpus (exit %d)" % run.returncode, file=sys.stderr)
        sys.exit(2)
    answers = {}
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            text, href = json.loads(line)
            answers[text] = href
    return answers


def webkit_answers(inputs, scratch):
    cases_path = os.path.join(scratch, "cases.json")
    answers_path = os.path.join(scratch, "webkit.json")
    with open(cases_path, "w", encoding="utf-8") as handle:
        json.dump([{"input": text, "base": None} for text in inputs], handle)
    command = ["xvfb-run", "-a", "/usr/bin/python3", WEBKIT_URLS, cases_path, answers_path]
    if subprocess.run(command).returncode != 0:
        print("url_webkit: WebKit did not answer", file=sys.stderr)
        sys.exit(2)
    with open(answers_path, encoding="utf-8") as handle:
        return [answer["href"] for answer in json.load(handle)]


def main():
    folders = sys.argv[1:]
    if not folders or any(not os.path.isdir(folder) for folder in folders):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        sys.exit(2)
    if not os.access(TARGET, os.X_OK):
        print("url_webkit: %s is not built (ci/fuzz/build.sh --product FuzzURL)" % TARGET, file=sys.stderr)
        sys.exit(2)
    files = sum(len(files) for folder in folders for _, _, files in os.walk(folder))
    with tempfile.TemporaryDirectory(prefix="webpolicy-url-fuzz-") as scratch:
        ours = webpolicy_answers(folders, scratch)
        inputs = sorted(ours)
        theirs = webkit_answers(inputs, scratch)
    disagreements = [(text, ours[text], href) for text, href in zip(inputs, theirs) if ours[text] != href]
    parsed = sum(1 for text in inputs if ours[text] is not None)
    for text, mine, webkit in disagreements:
        print("DISAGREE %s: webpolicy %s, WebKit %s" % (json.dumps(text), json.dumps(mine), json.dumps(webkit)))
    print("url fuzz corpus: %d files, %d distinct inputs (%d parse as URLs), %d disagreements with WebKit"
          % (files, len(inputs), parsed, len(disagreements)))
    sys.exit(1 if disagreements else 0)


if __name__ == "__main__":
    main()
