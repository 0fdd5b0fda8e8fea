"""Real WebKit against webpolicy, part 5: a server the user chooses.

usage: roles_conformance.py WEBPOLICY PROBE [--app-keeps-first-binding] [--keep DIR]

The example policy for a self-hosted app (policies/self-hosted-dashboard.yaml: its pages and
bridges are `${server}`, plain http only on the local network) is played in a real
WebKitGTK as the app lives it (webkit_roles.py): the app loads the dashboard before the user
signed in; the user signs in to an https server and the app binds `server` to it; the page
calls the bridges from its main frame and from an iframe; a link leaves the app; the user
switches to the server at home — a real server on 127.0.0.1, first by a name that resolves
to it (`localhost`), then by its address — and the page of the server they left calls
again; then the user enters a public server over plain http, which the policy refuses.
Every binding goes through `policy.bind` in webpolicy-app-probe, every navigation through
its navigation decider, every message through its gate.

From what happened it writes the trace a team would write (`bind`, `page … by=app`, `page …
by=link`, `message`), asks `webpolicy simulate --format json`, and compares step by step: a
binding accepted exactly when simulate's `bind` line allows it; a load shown, and seen by
its server, exactly when simulate allows it (a refused load never reaches a server); a link
handed to the system exactly when simulate hands it; a message heard by the app's handler
exactly when simulate allows it. Prints each disagreement; exits 1 on any.

--app-keeps-first-binding plays an app that binds once and never again when the user
switches servers: CI requires the lane to catch it.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from urllib.parse import urlsplit

HERE = os.path.dirname(os.path.abspath(__file__))
POLICY = os.path.normpath(os.path.join(HERE, "..", "..", "policies", "self-hosted-dashboard.yaml"))
HANDLERS = ["externalBus", "getExternalAuth"]
HOME = "http://localhost:{local}"
HOME_BY_ADDRESS = "http://127.0.0.1:{local}"

# The story, in the order the app lives it. `{local}` is the port of the server on 127.0.0.1.
STORY = [
    {"do": "load", "url": "https://ha.example.com/lovelace/0"},  # before the user signed in
    {"do": "bind", "role": "server", "url": "https://ha.example.com"},
    {"do": "load", "url": "https://ha.example.com/lovelace/0"},
    {"do": "post", "handler": "externalBus", "frame": "main"},
    {"do": "post", "handler": "getExternalAuth", "frame": "main"},
    {"do": "post", "handler": "getExternalAuth", "frame": "child"},
    {"do": "link", "url": "https://www.home-assistant.io/docs/"},
    {"do": "bind", "role": "server", "url": HOME},
    {"do": "post", "handler": "getExternalAuth", "frame": "main"},  # the page of the server left behind
    {"do": "load", "url": HOME + "/lovelace/0"},
    {"do": "post", "handler": "externalBus", "frame": "main"},
    {"do": "post", "handler": "getExternalAuth", "frame": "main"},
    {"do": "bind", "role": "server", "url": HOME_BY_ADDRESS},
    {"do": "post", "handler": "getExternalAuth", "frame": "main"},  # localhost is not the bound origin now
    {"do": "load", "url": HOME_BY_ADDRESS + "/lovelace/0"},
    {"do": "post", "handler": "getExternalAuth", "frame": "main"},
    {"do": "bind", "role": "server", "url": "http://dash.example.net"},  # public, plain http: refused
    {"do": "load", "url": "http://dash.example.net/"},
    {"do": "post", "handler": "getExternalAuth", "frame": "main"},
    {"do": "load", "url": HOME_BY_ADDRESS + "/lovelace/0"},
]

CHILD_PAGE = "/local/card.html"


def origin_of(url):
    parts = urlsplit(url)
    return "%s://%s" % (parts.scheme, parts.netloc)


def as_requested(url):
    """A URL as the servers record a request: scheme://host:port/path?query."""
    parts = urlsplit(url)
    port = parts.port or {"http": 80, "https": 443}[parts.scheme]
    return "%s://%s:%d%s%s" % (parts.scheme, parts.hostname, port, parts.path or "/", "?" + parts.query if parts.query else "")


def trace_line(step, happened):
    """The trace line a team writes for a step, from what the app did (its shown page)."""
    if step["do"] == "bind":
        return "bind %s=%s" % (step["role"], step["url"])
    if step["do"] in ("load", "link"):
        return "page %s by=%s" % (step["url"], "app" if step["do"] == "load" else "link")
    page = happened.get("shownBefore") or "about:blank"
    if step["frame"] == "child":
        return "message %s%s handler=%s frame=child" % (origin_of(page), CHILD_PAGE, step["handler"])
    return "message %s handler=%s" % (page, step["handler"])


def compare(step, happened, simulated):
    """The disagreements of one step, as sentences."""
    allowed = simulated["verdict"] == "allow"
    why = "simulate says %s (%s)" % (simulated["verdict"], simulated["reason"])
    if step["do"] == "bind":
        if happened["bound"] != allowed:
            return ["policy.bind %s; %s" % ("accepted it" if happened["bound"] else "refused it (" + str(happened.get("reason")) + ")", why)]
        return []
    problems = [] if happened.get("settled", True) else ["WebKit never settled within the time limit"]
    if step["do"] in ("load", "link"):
        handed = bool(simulated["handedToSystem"])
        # The view moved to it (reloading the page already shown moves nothing).
        shown = happened["shown"] == step["url"] and (happened["shownBefore"] != step["url"] or allowed)
        reached = as_requested(step["url"]) in happened["requests"]
        opened = step["url"] in happened["opened"]
        if handed and not opened:
            problems.append("the runtime did not hand it to the system; " + why + ", handed to the system")
        if opened and not handed:
            problems.append("the runtime handed it to the system; " + why)
        if allowed and not handed and not (shown and reached):
            problems.append("the view shows %s%s; %s" % (happened["shown"], "" if reached else " and no server saw the request", why))
        if (not allowed or handed) and (shown or reached):
            problems.append("%s; %s" % ("the view shows it" if shown else "a server saw the request (" + as_requested(step["url"]) + ")", why))
        return problems
    heard = any(d["heard"] and d["handler"] == step["handler"] and d["frame"] == step["frame"] for d in happened["delivered"])
    if heard != allowed:
        delivered = [d for d in happened["delivered"] if d["handler"] == step["handler"] and d["frame"] == step["frame"]]
        webkit = ("WebKit delivered it from %s, and the gate %s" % (delivered[0]["origin"], "let the app hear it" if heard else "refused it: " + str(delivered[0]["reason"]))
                  if delivered else "WebKit never delivered it (%s)" % happened.get("script"))
        problems.append("%s; %s" % (webkit, why))
    return problems


def simulate(webpolicy, folder, lines):
    path = os.path.join(folder, "story.trace")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("policy: %s\n" % POLICY)
        handle.write("\n".join(lines) + "\n")
    result = subprocess.run([webpolicy, "simulate", "--format", "json", path], capture_output=True, text=True)
    if result.returncode not in (0, 1):
        raise SystemExit("webpolicy simulate failed:\n" + result.stdout + result.stderr)
    verdicts = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
    return path, [line for line in verdicts if "verdict" in line]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("webpolicy")
    parser.add_argument("probe")
    parser.add_argument("--app-keeps-first-binding", action="store_true",
                        help="the app never rebinds when the user switches servers (CI's negative check)")
    parser.add_argument("--keep", help="leave the compiled policy, plan, results and trace in this folder")
    arguments = parser.parse_args()
    webpolicy, probe = os.path.abspath(arguments.webpolicy), os.path.abspath(arguments.probe)
    folder = arguments.keep or tempfile.mkdtemp(prefix="webpolicy-roles-")
    os.makedirs(folder, exist_ok=True)
    began = time.monotonic()

    compiled = os.path.join(folder, "compiled")
    compiling = subprocess.run([webpolicy, "compile", POLICY, "--output", compiled], capture_output=True, text=True)
    if compiling.returncode != 0:
        raise SystemExit("webpolicy compile failed:\n" + compiling.stdout + compiling.stderr)
    plan_path, results_path = os.path.join(folder, "plan.json"), os.path.join(folder, "results.json")
    with open(plan_path, "w", encoding="utf-8") as handle:
        json.dump({"handlers": HANDLERS, "steps": STORY, "keepsFirstBinding": arguments.app_keeps_first_binding}, handle, indent=1)
    command = ["xvfb-run", "-a", "/usr/bin/python3", os.path.join(HERE, "webkit_roles.py"), probe, compiled, plan_path, results_path]
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0 or not os.path.exists(results_path):
        raise SystemExit("the WebKit side failed (%d):\n%s%s" % (run.returncode, run.stdout[-3000:], run.stderr[-3000:]))
    with open(results_path, encoding="utf-8") as handle:
        results = json.load(handle)
    if results["errors"]:
        raise SystemExit("the app could not register its handlers: " + "; ".join(results["errors"]))

    local = str(results["local"])
    steps = [{key: value.replace("{local}", local) if isinstance(value, str) else value for key, value in step.items()} for step in STORY]
    happened = results["steps"]
    lines = [trace_line(step, done) for step, done in zip(steps, happened)]
    trace_path, verdicts = simulate(webpolicy, folder, lines)
    if len(verdicts) != len(steps):
        raise SystemExit("simulate gave %d verdicts for %d steps of %s" % (len(verdicts), len(steps), trace_path))

    disagreements = 0
    for number, (step, done, line, simulated) in enumerate(zip(steps, happened, lines, verdicts), 1):
        problems = compare(step, done, simulated)
        if problems:
            disagreements += 1
            print("DISAGREE %2d %s" % (number, line))
            for problem in problems:
                print("  - " + problem)
        else:
            print("agree    %2d %-72s → %s%s" % (number, line, simulated["verdict"], " (handed to the system)" if simulated["handedToSystem"] else ""))
    print("%d steps, %d disagreements, %.0f s" % (len(steps), disagreements, time.monotonic() - began))
    if not arguments.keep:
        shutil.rmtree(folder, ignore_errors=True)
    sys.exit(1 if disagreements else 0)


if __name__ == "__main__":
    main()
