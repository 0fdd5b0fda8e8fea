#!/usr/bin/python3
"""URLs as WebKit parses them: the web-platform-tests URL suite (`urltestdata.json`) and its
IDNA files (`toascii.json`, `IdnaTestV2.json`), vendored in Tests/Fixtures/url/ (see the
README there), run through a real WebKit (WebKitGTK's `new URL()`, webkit_urls.py) and
compared with Tests/Fixtures/url/webkit-expectations.json — the answers `CanonicalURL` is held
to by `URLConformanceTests` (swift test). Together the two checks make a disagreement between
webpolicy's parser and WebKit fail CI: this one when WebKit's answers move, the test when the
parser's do.

usage: python3 url_conformance.py [--record]

The cases kept are those whose base cannot change the result: WebKit gives the same answer
without the case's base as with it (a trace's URLs are absolute). IDNA cases are parsed as
`https://INPUT/x`, as WPT's IDNA tests do. Where WebKit's answer departs from WPT's, the case
is listed, with WebKit's answer as the expectation. --record writes the expectations anew.
Prints the counts; exit 0 when WebKit answers as recorded, 1 when it does not, 2 on errors.
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FIXTURES = os.path.join(ROOT, "Tests", "Fixtures", "url")
EXPECTATIONS = os.path.join(FIXTURES, "webkit-expectations.json")


def load(name):
    with open(os.path.join(FIXTURES, name), encoding="utf-8") as handle:
        return [entry for entry in json.load(handle) if isinstance(entry, dict)]


def cases():
    """(source, input, base, WPT's href or None for failure)."""
    found = []
    for entry in load("urltestdata.json"):
        expected = None if entry.get("failure") else entry.get("href")
        found.append(("urltestdata", entry["input"], entry.get("base"), expected))
    for name in ("toascii.json", "IdnaTestV2.json"):
        for entry in load(name):
            output = entry.get("output")
            found.append((name[:-5], "https://" + entry["input"] + "/x", None, None if output is None else "https://" + output + "/x"))
    return found


def ask_webkit(found):
    with tempfile.TemporaryDirectory(prefix="webpolicy-urls-") as folder:
        cases_path = os.path.join(folder, "cases.json")
        answers_path = os.path.join(folder, "answers.json")
        with open(cases_path, "w", encoding="utf-8") as handle:
            json.dump([{"input": text, "base": base} for _, text, base, _ in found], handle)
        command = ["xvfb-run", "-a", "/usr/bin/python3", os.path.join(HERE, "webkit_urls.py"), cases_path, answers_path]
        if subprocess.run(command).returncode != 0:
            sys.exit(2)
        with open(answers_path, encoding="utf-8") as handle:
            return json.load(handle)


def main():
    record = "--record" in sys.argv[1:]
    found = cases()
    answers = ask_webkit(found)
    expectations = []
    skipped = 0
    for (source, text, base, wpt), answer in zip(found, answers):
        if answer["href"] != answer["hrefWithBase"]:
            skipped += 1
            continue
        entry = {"source": source, "input": text, "webkit": answer["href"]}
        # WPT's answer is with the case's base, which here gives WebKit's answer too.
        if wpt != answer["href"]:
            entry["wpt"] = wpt
        expectations.append(entry)
    departures = [entry for entry in expectations if "wpt" in entry]
    by_source = {}
    for entry in expectations:
        by_source[entry["source"]] = by_source.get(entry["source"], 0) + 1
    print("url conformance: %d cases whose base cannot matter (%s), %d left out (their base changes WebKit's answer); WebKit departs from WPT on %d"
          % (len(expectations), ", ".join("%s %d" % item for item in sorted(by_source.items())), skipped, len(departures)))
    if record:
        with open(EXPECTATIONS, "w", encoding="utf-8") as handle:
            json.dump(expectations, handle, indent=1, ensure_ascii=True)
            handle.write("\n")
        print("recorded %s" % os.path.relpath(EXPECTATIONS, ROOT))
        return 0
    with open(EXPECTATIONS, encoding="utf-8") as handle:
        recorded = json.load(handle)
    recorded_by_key = {(entry["source"], entry["input"]): entry["webkit"] for entry in recorded}
    fresh_by_key = {(entry["source"], entry["input"]): entry["webkit"] for entry in expectations}
    changed = [key for key in fresh_by_key if key in recorded_by_key and fresh_by_key[key] != recorded_by_key[key]]
    missing = [key for key in recorded_by_key if key not in fresh_by_key]
    for source, text in changed[:20]:
        print("DISAGREE %s %r: WebKit now %r, recorded %r" % (source, text, fresh_by_key[(source, text)], recorded_by_key[(source, text)]))
    for source, text in missing[:20]:
        print("DISAGREE %s %r: its base now changes WebKit's answer" % (source, text))
    if changed or missing or len(recorded) != len(expectations):
        print("WebKit's answers moved: %d changed, %d no longer base-free, %d recorded, %d now (run with --record after checking them)"
              % (len(changed), len(missing), len(recorded), len(expectations)))
        return 1
    print("WebKit answers all %d as recorded; URLConformanceTests holds CanonicalURL to the same answers" % len(expectations))
    return 0


if __name__ == "__main__":
    sys.exit(main())
