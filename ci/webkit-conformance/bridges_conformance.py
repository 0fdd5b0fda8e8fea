"""Real WebKit against webpolicy, part 4: who may call the app.

usage: bridges_conformance.py WEBPOLICY PROBE [--only ID] [--app-skips-gate] [--keep DIR]

A page of the shop (https://www.shop.example/) and a cross-origin iframe of a partner's
widget (https://widgets.partner.example/) post to the app's handlers, from the page world
and from a user script of the app's own world, with the page's JavaScript on and off
(bridges/shop.yaml, bridges/javascript-off.yaml). The handlers are registered through the
app's message gate (webpolicy-app-probe: `ScriptMessageGate` over the compiled policy) in a
real WebKitGTK (webkit_messages.py); what WebKit delivers goes through the gate. For every
post, the app's handler must hear it exactly when `webpolicy simulate` allows its `message`
line — a post WebKit never delivers (a handler of another world, scripts off) included.
Prints each disagreement with the post, simulate's reason and what WebKit and the gate did;
exits 1 on any. `--app-skips-gate` plays the app that registers its handlers straight on the
user content controller: the lane must then disagree.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PAGE = "https://www.shop.example/"
FRAME = "https://widgets.partner.example/frame"

# (id, policy, page JavaScript, page-world posts from the main frame and the iframe, the app
# world's name and the handlers its user script posts to)
SCENARIOS = [
    ("page-and-iframe", "shop.yaml", True, ["cart", "widgets", "session", "nope"], ["cart", "widgets", "session"], ("checkout", ["session", "cart"])),
    ("javascript-off", "javascript-off.yaml", False, ["cart", "session"], ["cart"], ("checkout", ["session", "cart"])),
]


def posts(scenario):
    """Every post a scenario makes: (frame, world, handler), with the frame's document."""
    made = [("main", "page", name) for name in scenario["posts"]["page"]]
    made += [("child", "page", name) for name in scenario["posts"]["frame"]]
    world = scenario["posts"]["world"]
    made += [(frame, world["name"], name) for frame in ("main", "child") for name in world["handlers"]]
    return made


def trace_line(post):
    frame, world, handler = post
    url = PAGE if frame == "main" else FRAME
    return "message %s handler=%s frame=%s world=%s" % (url, handler, frame, world)


def simulate(webpolicy, folder, scenario):
    path = os.path.join(folder, scenario["id"] + ".trace")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("policy: %s\n" % scenario["policy"])
        handle.write("\n".join(trace_line(post) for post in posts(scenario)) + "\n")
    result = subprocess.run([webpolicy, "simulate", "--format", "json", path], capture_output=True, text=True)
    if result.returncode not in (0, 1):
        raise SystemExit("webpolicy simulate failed:\n" + result.stdout + result.stderr)
    lines = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
    lines = [line for line in lines if "verdict" in line]
    scenario["tracePath"] = path
    return {(line["frame"], line["world"], line["handler"]): line for line in lines}


def compare(scenario, simulated, result):
    """The disagreements of one scenario, as sentences."""
    problems = ["the app could not register its handlers: " + error for error in result.get("errors", [])]
    if not result.get("settled"):
        problems.append("WebKit never settled within the time limit")
    heard = {}
    for delivery in result["delivered"]:
        key = (delivery["frame"], delivery["world"], delivery["handler"])
        heard[key] = heard.get(key, False) or bool(delivery["heard"])
    for post in posts(scenario):
        line = simulated.get(post)
        if line is None:
            problems.append("simulate gave no line for %s" % trace_line(post))
            continue
        allowed = line["verdict"] == "allow"
        if allowed != heard.get(post, False):
            delivered = next((d for d in result["delivered"] if (d["frame"], d["world"], d["handler"]) == post), None)
            webkit = ("WebKit delivered it, and the gate %s" % ("let the app hear it" if delivery_heard(delivered) else "refused it: " + str(delivered.get("reason")))
                      if delivered else "WebKit never delivered it")
            problems.append("%s: simulate says %s (%s); %s" % (trace_line(post), line["verdict"], line["reason"], webkit))
    return problems


def delivery_heard(delivered):
    return bool(delivered and delivered.get("heard"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("webpolicy")
    parser.add_argument("probe")
    parser.add_argument("--only", help="run this scenario alone")
    parser.add_argument("--app-skips-gate", action="store_true", help="the app adds its handlers without the gate (CI's negative check)")
    parser.add_argument("--keep", help="leave the compiled policies, traces, plan and results in this folder")
    arguments = parser.parse_args()
    webpolicy, probe = os.path.abspath(arguments.webpolicy), os.path.abspath(arguments.probe)
    folder = arguments.keep or tempfile.mkdtemp(prefix="webpolicy-bridges-")
    os.makedirs(folder, exist_ok=True)
    began = time.monotonic()

    scenarios, plan, simulated = [], [], {}
    if arguments.only and arguments.only not in [scenario[0] for scenario in SCENARIOS]:
        parser.error("no scenario %s; there are %s" % (arguments.only, ", ".join(scenario[0] for scenario in SCENARIOS)))
    for id, policy, javascript, page_posts, frame_posts, (world, world_posts) in SCENARIOS:
        if arguments.only and id != arguments.only:
            continue
        policy_path = os.path.join(HERE, "bridges", policy)
        compiled = os.path.join(folder, "compiled-" + id)
        subprocess.run([webpolicy, "compile", policy_path, "--output", compiled], check=True, stdout=subprocess.DEVNULL)
        scenario = {"id": id, "policy": policy_path, "compiled": compiled, "page": PAGE, "frame": FRAME, "javascript": javascript,
                    "handlers": ["cart", "widgets", "session"] if policy == "shop.yaml" else ["cart", "session"], "skipsGate": arguments.app_skips_gate,
                    "posts": {"page": page_posts, "frame": frame_posts, "world": {"name": world, "handlers": world_posts}}}
        simulated[id] = simulate(webpolicy, folder, scenario)
        scenarios.append(scenario)
        plan.append({key: scenario[key] for key in ("id", "compiled", "page", "frame", "javascript", "handlers", "skipsGate", "posts")})

    plan_path, results_path = os.path.join(folder, "plan.json"), os.path.join(folder, "results.json")
    with open(plan_path, "w", encoding="utf-8") as handle:
        json.dump(plan, handle, indent=1)
    command = ["xvfb-run", "-a", "/usr/bin/python3", os.path.join(HERE, "webkit_messages.py"), probe, plan_path, results_path]
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0 or not os.path.exists(results_path):
        raise SystemExit("the WebKit side failed (%d):\n%s%s" % (run.returncode, run.stdout[-3000:], run.stderr[-3000:]))
    with open(results_path, encoding="utf-8") as handle:
        results = {result["id"]: result for result in json.load(handle)}

    disagreements = 0
    compared = 0
    for scenario in scenarios:
        result = results[scenario["id"]]
        problems = compare(scenario, simulated[scenario["id"]], result)
        compared += len(posts(scenario))
        heard = sorted({(d["frame"], d["world"], d["handler"]) for d in result["delivered"] if d["heard"]})
        if problems:
            disagreements += 1
            print("DISAGREE %s (%s)" % (scenario["id"], os.path.basename(scenario["policy"])))
            for problem in problems:
                print("  - " + problem)
        else:
            print("agree    %-16s %d posts; the app heard %s" % (scenario["id"], len(posts(scenario)),
                                                                 ", ".join("%s %s/%s" % (handler, frame, world) for frame, world, handler in heard) or "nothing"))
    print("%d scenarios, %d posts, %d disagreements, %.0f s" % (len(scenarios), compared, disagreements, time.monotonic() - began))
    if not arguments.keep:
        shutil.rmtree(folder, ignore_errors=True)
    sys.exit(1 if disagreements else 0)


if __name__ == "__main__":
    main()
