"""Real WebKit against webpolicy, part 3: where a web view goes.

usage: navigation_conformance.py WEBPOLICY PROBE [--keep DIR] [--only ID]... [--app-forgets-provisional-callbacks]

WEBPOLICY is the webpolicy binary, PROBE webpolicy-app-probe (the app's navigation and
UI delegates over the runtime; see webkit_navigation.py). The policy is navigation/shop.yaml:
the shop's pages (`*.shop.example`), links elsewhere opened by the system, new windows in the
same view.

For each scenario — a page's link, script navigation, server redirect (after a script and
after a tapped link), `target=_blank` link and `window.open`, inside and outside the pages —
it writes the trace a team would write (`page … by=link`, `by=script`, a `by=redirect` line
for the redirect's target, `popup …`), asks `webpolicy simulate --format json`, then drives
the same navigation in WebKitGTK with the runtime deciding each step through `decide-policy`,
and compares:
- where the view landed (its URL once settled) with the page simulate says it shows — the
  `top` of a request line appended after the navigation;
- what the runtime handed to the system with the lines simulate marks `handedToSystem`;
- who started each navigation: the runtime's reading of WebKit's navigation type (and of its
  provisional navigation, for redirects) with the trace's `by=`, and its redirect reading
  with WebKit's own (`webkit_navigation_action_is_redirect`).
Prints each disagreement with the scenario, its trace and both sides; exits 1 on any.

--app-forgets-provisional-callbacks plays an app whose delegate does not forward the
provisional-navigation callbacks to the decider: CI requires the lane to catch the redirect
of a tapped link leaving the app then (a DISAGREE on redirect-outside-after-link).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from urllib.parse import quote, unquote

HERE = os.path.dirname(os.path.abspath(__file__))
POLICY = os.path.join(HERE, "navigation", "shop.yaml")
START = "https://www.shop.example/"
INSIDE = "https://m.shop.example/cart"
OUTSIDE = "https://news.example/story"


def redirect_to(url):
    """A URL inside the pages whose answer is a 302 to `url` (recording_proxy.py)."""
    return "https://www.shop.example/__redirect?to=" + quote(url, safe="")


# (id, how the page starts it, target)
SCENARIOS = [
    ("link-outside", "link", OUTSIDE),
    ("script-outside", "script", OUTSIDE),
    ("redirect-outside-after-script", "script", redirect_to(OUTSIDE)),
    ("redirect-outside-after-link", "link", redirect_to(OUTSIDE)),
    ("link-inside", "link", INSIDE),
    ("script-inside", "script", INSIDE),
    ("redirect-inside-after-link", "link", redirect_to(INSIDE)),
    ("link-inside-over-http", "link", "http://m.shop.example/cart"),
    ("blank-outside", "blank", OUTSIDE),
    ("blank-inside", "blank", INSIDE),
    ("window-open-outside", "open", OUTSIDE),
    ("window-open-inside", "open", INSIDE),
]

BY = {"link": "link", "blank": "link", "script": "script", "open": "script"}
PROBE_LINE = "image https://www.shop.example/__probe.png"


def trace_lines(how, target):
    """The navigation lines of the trace for a scenario."""
    if how in ("blank", "open"):
        return ["popup %s by=%s" % (target, BY[how])]
    lines = ["page %s by=%s" % (target, BY[how])]
    marker = "/__redirect?to="
    if marker in target:
        lines.append("page %s by=redirect" % unquote(target.split(marker, 1)[1]))
    return lines


def simulate(webpolicy, folder, scenarios):
    """Per scenario: the page simulate says the view shows after the navigation, the URLs it
    hands to the system, and the (url, by) of each navigation line."""
    paths = []
    for scenario in scenarios:
        path = os.path.join(folder, scenario["id"] + ".trace")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write("policy: %s\n" % POLICY)
            handle.write("page %s by=app\n" % START)
            handle.write("\n".join(scenario["trace"]) + "\n")
            handle.write(PROBE_LINE + "\n")
        scenario["tracePath"] = path
        paths.append(path)
    result = subprocess.run([webpolicy, "simulate", "--format", "json"] + paths, capture_output=True, text=True)
    if result.returncode not in (0, 1):
        raise SystemExit("webpolicy simulate failed:\n" + result.stdout + result.stderr)
    by_trace = {}
    for line in result.stdout.splitlines():
        entry = json.loads(line)
        if "verdict" in entry:
            by_trace.setdefault(entry["trace"], []).append(entry)
    for scenario in scenarios:
        lines = by_trace.get(scenario["tracePath"], [])
        scenario["simulated"] = {
            "page": lines[-1]["top"] if lines else None,
            "handedToSystem": [line["url"] for line in lines if line["handedToSystem"]],
            "verdicts": ["%s %s: %s%s" % (line["type"], line["url"], line["verdict"], " (handed to the system)" if line["handedToSystem"] else "")
                         for line in lines[1:-1]],
        }


def compare(scenario, result):
    """The disagreements of one scenario, as sentences."""
    problems = []
    simulated = scenario["simulated"]
    if result.get("startedAt") != START:
        return ["the start page never loaded in WebKit (the view shows %s)" % result.get("startedAt")]
    if not result.get("settled"):
        problems.append("WebKit never settled within the time limit")
    if result["landed"] != simulated["page"]:
        problems.append("the view landed on %s; simulate says it shows %s" % (result["landed"], simulated["page"]))
    if result["opened"] != simulated["handedToSystem"]:
        problems.append("the runtime handed %s to the system; simulate hands %s" % (result["opened"] or "nothing", simulated["handedToSystem"] or "nothing"))
    decisions = result["decisions"][1:]  # the first is the app's own load of the start page
    for decision in decisions:
        if decision["kind"] == "navigation" and (decision["initiator"] == "redirect") != decision["webkitRedirect"]:
            problems.append("the runtime read %s (WebKit type %s) as %s, but WebKit %s it a redirect"
                            % (decision["url"], decision["webkitType"], decision["initiator"], "calls" if decision["webkitRedirect"] else "does not call"))
    # Each trace line's navigation is the runtime's first decision for that URL.
    for line in scenario["trace"]:
        kind, url, by = line.split(" ")
        by = by.split("=", 1)[1]
        wanted = "new-window" if kind == "popup" else "navigation"
        match = next((d for d in decisions if d["kind"] == wanted and d["url"] == url), None)
        if match is None:
            if not any(problem.startswith("the view landed") for problem in problems):
                problems.append("WebKit never asked about %s (%s)" % (url, wanted))
        elif match["initiator"] != by:
            problems.append("the runtime read %s as started by %s; the trace says by=%s" % (url, match["initiator"], by))
    return problems


def show(scenario, result, problems):
    print("DISAGREE %s: %s %s" % (scenario["id"], scenario["do"], scenario["target"]))
    for problem in problems:
        print("  - " + problem)
    print("  trace:")
    with open(scenario["tracePath"], encoding="utf-8") as handle:
        for line in handle.read().splitlines():
            print("    " + line)
    print("  simulate: " + "; ".join(scenario["simulated"]["verdicts"]))
    print("  WebKit and the runtime:")
    for decision in result["decisions"]:
        print("    %s %s (WebKit: %s%s) → %s as %s%s" % (
            decision["kind"], decision["url"], decision["webkitType"], ", redirect" if decision["webkitRedirect"] else "",
            decision["decision"], decision["initiator"], ": " + decision["reason"] if decision.get("reason") else ""))
    print("    load events: " + ", ".join(result["events"]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("webpolicy")
    parser.add_argument("probe")
    parser.add_argument("--keep", help="leave the compiled policy, traces, plan and results in this folder")
    parser.add_argument("--only", action="append", help="run only this scenario (repeatable)")
    parser.add_argument("--app-forgets-provisional-callbacks", action="store_true",
                        help="do not hand WebKit's load events to the decider (an app that forgets to)")
    arguments = parser.parse_args()
    webpolicy, probe = os.path.abspath(arguments.webpolicy), os.path.abspath(arguments.probe)
    folder = arguments.keep or tempfile.mkdtemp(prefix="webpolicy-navigation-")
    os.makedirs(folder, exist_ok=True)
    began = time.monotonic()

    compiled = os.path.join(folder, "compiled")
    subprocess.run([webpolicy, "compile", POLICY, "--output", compiled], check=True, stdout=subprocess.DEVNULL)
    scenarios = [{"id": id, "start": START, "do": how, "target": target, "trace": trace_lines(how, target)} for id, how, target in SCENARIOS
                 if not arguments.only or id in arguments.only]
    if not scenarios:
        raise SystemExit("no scenario is called %s; there are %s" % (", ".join(arguments.only), ", ".join(id for id, _, _ in SCENARIOS)))
    simulate(webpolicy, folder, scenarios)

    plan_path, results_path = os.path.join(folder, "plan.json"), os.path.join(folder, "results.json")
    with open(plan_path, "w", encoding="utf-8") as handle:
        json.dump([{key: scenario[key] for key in ("id", "start", "do", "target")} for scenario in scenarios], handle, indent=1)
    command = ["xvfb-run", "-a", "/usr/bin/python3", os.path.join(HERE, "webkit_navigation.py"), probe, compiled, plan_path, results_path]
    if arguments.app_forgets_provisional_callbacks:
        command.append("--app-forgets-provisional-callbacks")
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0 or not os.path.exists(results_path):
        raise SystemExit("the WebKit side failed (%d):\n%s%s" % (run.returncode, run.stdout[-3000:], run.stderr[-3000:]))
    with open(results_path, encoding="utf-8") as handle:
        results = {result["id"]: result for result in json.load(handle)}

    disagreements = 0
    for scenario in scenarios:
        result = results[scenario["id"]]
        problems = compare(scenario, result)
        if problems:
            disagreements += 1
            show(scenario, result, problems)
        else:
            print("agree    %-31s → %s%s" % (scenario["id"], result["landed"], ", opened " + " ".join(result["opened"]) if result["opened"] else ""))
    print("%d scenarios, %d disagreements, %.0f s" % (len(scenarios), disagreements, time.monotonic() - began))
    if not arguments.keep:
        shutil.rmtree(folder, ignore_errors=True)
    sys.exit(1 if disagreements else 0)


if __name__ == "__main__":
    main()
