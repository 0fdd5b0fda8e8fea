"""Real WebKit against webpolicy, part 2: replaying requests.

usage: replay_conformance.py WEBPOLICY [--seed N] [--groups N] [--keep DIR]
       replay_conformance.py WEBPOLICY --real-list LIST.json --real-trace TRACE [--pages N] [--seed N]

Generates rule lists and pages of requests aimed at them (generate.py, seeded; plus the
hand-written facts of facts.json), asks
`webpolicy simulate --content-rules LIST --format json` what each request gets, replays the
same requests in a real headless WebKit with the list installed (webkit_replay.py, under
Xvfb, through a local recording proxy), and compares: blocked (it never reached the proxy;
WebKit's console names the content blocker), upgraded (it arrived as https/wss), loaded, and
whether its cookie was sent (block-cookies). Prints each disagreement with the list, the
request and both results, then the counts and the seed; exits 1 on any disagreement.
A disagreement counts only when WebKit repeats it on a second replay of its page (else it is
UNSTABLE); a load WebKit never made where webpolicy lets it through is also asked for with the
page making it alone, and is CROWDED (not counted) when WebKit then makes it — a busy machine
can keep a page of 60 loads from making them all before its quiet period ends.

With --real-list, the lane for real block lists: a seeded sample of pages of a realistic trace
(webpolicy-simulate-bench --write-trace) is replayed with that list (EasyList + EasyPrivacy in
CI), each page a group, instead of generated lists and facts. With
--keep, each group's list and trace are written to DIR, so
`webpolicy simulate --content-rules DIR/gN.json DIR/gN.trace` shows webpolicy's side again.
"""
import argparse
import copy
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import unquote, urlsplit

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import generate  # noqa: E402

SECURE = {"http": "https", "ws": "wss"}
DEFAULT_PORTS = {"http": 80, "ws": 80, "https": 443, "wss": 443}
BLOCKED = re.compile(r"CONSOLE CONTENTBLOCKER \w+ Content blocker prevented frame displaying (\S+) from loading a resource from (\S+)")


def network_key(url):
    """A request as the network sees it, scheme aside (an upgrade changes only the scheme
    and the default port): lower-case host, non-default port, path and query decoded."""
    parts = urlsplit(url)
    port = parts.port
    if port in (80, 443):
        port = None
    path = unquote(parts.path or "/") + ("?" + unquote(parts.query) if parts.query else "")
    return ((parts.hostname or "").lower(), port, path)


def seen_key(seen):
    port = None if seen["port"] in (80, 443) else seen["port"]
    path, _, query = seen["path"].partition("?")
    return (seen["host"], port, unquote(path) + ("?" + unquote(query) if query else ""))


def secured(url):
    scheme, rest = url.split("://", 1)
    if scheme.lower() in SECURE:
        rest_host, slash, tail = rest.partition("/")
        rest_host = re.sub(r":80$", "", rest_host)  # :80 would stay :80 on https
        return SECURE[scheme.lower()] + "://" + rest_host + slash + tail
    return url


def simulate(webpolicy, list_paths, trace_path):
    """`list_paths`: the group's lists in the order the web view adds them."""
    lists = [argument for path in list_paths for argument in ("--content-rules", path)]
    result = subprocess.run([webpolicy, "simulate"] + lists + ["--format", "json", trace_path],
                            capture_output=True, text=True)
    if result.returncode not in (0, 1):
        return None, (result.stdout + result.stderr).strip()
    return requests_of(result.stdout), None


def rule_numbers(rules, shown=12):
    """`#1,#5,…` — a real list matches hundreds of universal rules on every request."""
    numbers = ["#%d" % (rule["rule"] + 1) for rule in rules]
    if len(numbers) > shown:
        numbers = numbers[:shown] + ["... %d more" % (len(numbers) - shown)]
    return ",".join(numbers) or "none"


def simulate_all(webpolicy, list_path, groups):
    """One `simulate` for many groups that share a list (a real list loads once): each group's
    trace is its own input, simulated from a fresh web view as on its own."""
    for group in groups:
        group._plan(group.raw["page"].lower().startswith("https:"))
    result = subprocess.run([webpolicy, "simulate", "--content-rules", list_path, "--format", "json"] + [group.trace_path for group in groups],
                            capture_output=True, text=True)
    if result.returncode not in (0, 1):
        for group in groups:
            group.error = (result.stdout + result.stderr).strip()[-3000:]
        return
    by_trace = {}
    for request in requests_of(result.stdout):
        by_trace.setdefault(request["trace"], []).append(request)
    for group in groups:
        group.predictions = by_trace.get(group.trace_path, [])
        group.error = None


def requests_of(output):
    """The request lines of `simulate --format json`, each with the page's shared record (the
    universal rules written once per page) folded back into its matched rules."""
    shared, requests = {}, []
    for line in output.splitlines():
        if not line.strip():
            continue
        entry = json.loads(line)
        if "verdict" in entry:
            record = shared.get(entry.get("shared"))
            if record:
                entry["matchedRules"] = sorted(record["matchedRules"] + entry["matchedRules"], key=lambda rule: rule.get("rule", -1))
                entry["hiddenSelectors"] = record["hiddenSelectors"] + entry["hiddenSelectors"]
            requests.append(entry)
        elif "shared" in entry:
            shared[entry["shared"]] = entry
    return requests


# The trace type of what the runner page makes: a beacon is an `other` load for WebKit
# (CachedResource::Type::Beacon).
TRACE_TYPES = {"beacon": "other"}


def trace_line(request, frame=None):
    fields = [TRACE_TYPES.get(request["type"], request["type"]), request["url"]]
    if request.get("method"):
        fields.append("method=" + request["method"])
    if frame:
        fields.append("frame=" + frame)
    return " ".join(fields)


class Group:
    """One list, one page, its requests: what webpolicy says about each and, after the replay,
    what WebKit did."""

    def __init__(self, raw, workdir):
        self.raw = raw
        self.id = raw["id"]
        self.trace_path = os.path.join(workdir, self.id + ".trace")
        if "listFile" in raw:
            self.list_path = raw["listFile"]
        else:
            self.list_path = os.path.join(workdir, self.id + ".json")
            with open(self.list_path, "w", encoding="utf-8") as handle:
                handle.write(raw["list"])
        # Further lists of the same web view, in order (gN-2.json, gN-3.json).
        self.list_paths = [self.list_path]
        for number, text in enumerate(raw.get("moreLists", []), start=2):
            path = os.path.join(workdir, "%s-%d.json" % (self.id, number))
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text)
            self.list_paths.append(path)
        self.error = None

    def write_trace(self, lines):
        with open(self.trace_path, "w", encoding="utf-8") as handle:
            handle.write("# seed group %s: replay with simulate --content-rules %s.json\n" % (self.id, self.id))
            handle.write("\n".join(lines) + "\n")

    def prepare(self, webpolicy):
        """Asks webpolicy about every request. A page that is (or becomes) https makes only
        https requests, since WebKit blocks mixed content on its own: when webpolicy says the
        page is upgraded, the requests are made secure and it is asked again."""
        self._plan(self.raw["page"].lower().startswith("https:"))
        self.predictions, self.error = simulate(webpolicy, self.list_paths, self.trace_path)
        if self.error or self.raw["page"].lower().startswith("https:") or not self.predictions[0]["finalURL"].startswith("https:"):
            return
        self._plan(True)
        self.predictions, self.error = simulate(webpolicy, self.list_paths, self.trace_path)

    def _plan(self, page_secure):
        plan = self.raw["plan"]
        for request in plan["requests"]:
            if page_secure and request["type"] != "popup":
                request["url"] = secured(request["url"])
        for frame in plan["frames"]:
            # Frames are https with https contents: no mixed content inside them either way.
            frame["url"] = secured(frame["url"])
            for request in frame["requests"]:
                request["url"] = secured(request["url"])
        self._drop_duplicates()
        lines = ["page " + self.raw["page"]]
        self.cases = [("page", {"type": "top-document", "url": self.raw["page"]}, None)]
        for request in plan["requests"]:
            lines.append(trace_line(request))
            self.cases.append(("request", request, None))
        for frame in plan["frames"]:
            lines.append("child-document " + frame["url"])
            self.cases.append(("frame", {"type": "child-document", "url": frame["url"]}, None))
            for request in frame["requests"]:
                lines.append(trace_line(request, frame["url"]))
                self.cases.append(("in-frame", request, frame["url"]))
        self.write_trace(lines)

    def _drop_duplicates(self):
        """One request per network identity in a group, so each proxy record has one owner."""
        plan = self.raw["plan"]
        taken = {network_key(self.raw["page"])}
        for frame in plan["frames"]:
            taken.add(network_key(frame["url"]))

        def unique(requests):
            kept = []
            for request in requests:
                key = network_key(request["url"])
                if key not in taken:
                    taken.add(key)
                    kept.append(request)
            return kept

        plan["requests"] = unique(plan["requests"])
        for frame in plan["frames"]:
            frame["requests"] = unique(frame["requests"])


def webkit_outcome(url, key, seen_by_key, console_blocked):
    """What WebKit did with a request: (verdict, scheme it went out with, cookie sent, console
    confirmed the block)."""
    seen = seen_by_key.get(key)
    if seen is None:
        return "block", None, None, key in console_blocked
    requested = url.split("://", 1)[0].lower()
    verdict = "upgrade" if seen["scheme"] != requested and seen["scheme"] == SECURE.get(requested) else "allow"
    return verdict, seen["scheme"], bool(seen["cookie"] and "wpc=1" in seen["cookie"]), False


def issue_outcomes(group, result):
    """For each case, None or why the runner page could not make the request."""
    outcomes = result.get("outcomes") or {}
    if "error" in outcomes:
        return [None] + [outcomes["error"]] * (len(group.cases) - 1)
    requests = iter(outcomes.get("requests") or [])
    frames = iter(outcomes.get("frames") or [])
    inner = iter([])
    issued = []
    for role, _, _ in group.cases:
        if role == "request":
            issued.append(next(requests, None))
        elif role == "frame":
            inner = iter(next(frames, None) or [])
            issued.append(None)
        elif role == "in-frame":
            issued.append(next(inner, None))
        else:
            issued.append(None)
    return issued


def compare(group, result, console_lines):
    """Disagreements in one group, and how many requests were compared and skipped."""
    disagreements, compared, skipped = [], Counter(), Counter()
    if "compileError" in result:
        return [("the list", "WebKit refuses the list: " + result["compileError"], "webpolicy simulates it")], compared, skipped
    seen_by_key = {}
    for seen in result["seen"]:
        seen_by_key.setdefault(seen_key(seen), seen)
    console_blocked = set()
    for line in console_lines:
        match = BLOCKED.search(line)
        if match:
            console_blocked.add(network_key(match.group(2)))
    keys = Counter(network_key(predicted["finalURL"]) for predicted in group.predictions)
    ambiguous = {key for key, count in keys.items() if count > 1}
    page_done = frame_done = False
    for (role, request, frame), predicted, issued in zip(group.cases, group.predictions, issue_outcomes(group, result)):
        if role == "frame":
            frame_done = False
        if (role in ("request", "frame") and page_done) or (role == "in-frame" and (page_done or frame_done)):
            skipped[request["type"]] += 1
            continue
        # The request as webpolicy canonicalised it (punycode, dot segments removed), which
        # is what WebKit sends; a normalisation difference shows up as a request never seen.
        key = network_key(predicted["finalURL"])
        if key in ambiguous:
            skipped["same URL twice"] += 1
            # Not compared, but a page or frame webpolicy blocks still ends what follows it
            # (seed 11105123: a page blocked by both, its URL also asked for as a style sheet).
            if role == "page":
                page_done = predicted["verdict"] == "block"
            elif role == "frame":
                frame_done = predicted["verdict"] == "block"
            continue
        if issued is not None:
            disagreements.append(("%s %s" % (request["type"], request["url"]), "the page could not make it: " + issued, "(harness)"))
            continue
        verdict, scheme, cookie, confirmed = webkit_outcome(request["url"], key, seen_by_key, console_blocked)
        expected = predicted["verdict"]
        problems = []
        if verdict != expected:
            problems.append("verdict")
        if verdict != "block" and expected != "block":
            strips = "block-cookies" in predicted["actions"]
            if cookie == strips:
                problems.append("cookie")
        compared[request["type"]] += 1
        if problems:
            webkit = verdict + ("" if verdict == "block" else " (as %s, cookie %s)" % (scheme, "sent" if cookie else "not sent"))
            if verdict == "block":
                webkit += " (console: %s)" % ("content blocker" if confirmed else "nothing; never reached the proxy")
            mine = "%s -> %s, actions %s, rules %s" % (
                expected, predicted["finalURL"], ",".join(predicted["actions"]) or "none",
                rule_numbers(predicted["matchedRules"]))
            disagreements.append((where_of(request, frame), "WebKit: " + webkit, "webpolicy: " + mine))
        blocked = verdict == "block" or expected == "block"
        if role == "page":
            page_done = blocked
        elif role == "frame":
            frame_done = blocked
    return disagreements, compared, skipped


def where_of(request, frame):
    """How a report names a request of a group."""
    return "%s %s%s%s" % (request["type"], request["url"], " method=" + request["method"] if request.get("method") else "",
                          " in frame " + frame if frame else "")


UNREACHED = "nothing; never reached the proxy"


def alone(group, where, index, workdir):
    """The group's page making only the request `where` (inside its frame, if it has one):
    a load WebKit did not make in a crowded page is asked for on its own. None when `where`
    is the page or a frame itself."""
    for role, request, frame in group.cases:
        if where_of(request, frame) != where or role not in ("request", "in-frame"):
            continue
        raw = copy.deepcopy(group.raw)
        raw["id"] = "%s-alone%d" % (group.id, index)
        single = copy.deepcopy(request)
        raw["plan"] = {"requests": [single], "frames": []} if role == "request" else {"requests": [], "frames": [{"url": frame, "requests": [single]}]}
        return Group(raw, workdir)
    return None


def console_by_group(output):
    groups, current = {}, None
    for line in output.splitlines():
        if line.startswith("=== webpolicy-group "):
            current = line.split()[-1]
            groups[current] = []
        elif current is not None:
            groups[current].append(line)
    return groups


def run_webkit(groups, workdir, lanes):
    """Replays the groups in `lanes` WebKit processes at once, each with its own proxy: most
    of a page's time is spent waiting (pings, popups, the quiet period), not computing."""
    os.makedirs(workdir, exist_ok=True)
    python = os.environ.get("WEBPOLICY_WEBKIT_PYTHON", "/usr/bin/python3")
    running = []
    for lane in range(lanes):
        share = groups[lane::lanes]
        if not share:
            continue
        plan_path = os.path.join(workdir, "plan-%d.json" % lane)
        results_path = os.path.join(workdir, "results-%d.json" % lane)
        console_path = os.path.join(workdir, "console-%d.txt" % lane)
        with open(plan_path, "w", encoding="utf-8") as handle:
            json.dump([group.raw for group in share], handle)
        command = [python, os.path.join(HERE, "webkit_replay.py"), plan_path, results_path]
        if not os.environ.get("DISPLAY") and shutil.which("xvfb-run"):
            command = ["xvfb-run", "-a"] + command
        console = open(console_path, "w", encoding="utf-8")
        running.append((subprocess.Popen(command, stdout=console, stderr=subprocess.STDOUT), console, console_path, results_path))
    results, consoles = {}, {}
    for process, console, console_path, results_path in running:
        code = process.wait(timeout=1800)
        console.close()
        with open(console_path, encoding="utf-8", errors="replace") as handle:
            output = handle.read()
        if code != 0 or not os.path.exists(results_path):
            sys.exit("replay_conformance: the WebKit replay failed (%d):\n%s" % (code, output[-4000:]))
        with open(results_path, encoding="utf-8") as handle:
            results.update({result["id"]: result for result in json.load(handle)})
        consoles.update(console_by_group(output))
    return results, consoles


def facts():
    """The hand-written groups of facts.json: each fact docs/semantics.md states about real
    WebKit, replayed on every run next to the generated groups."""
    with open(os.path.join(HERE, "facts.json"), encoding="utf-8") as handle:
        groups = json.load(handle)
    for group in groups:
        group["list"] = json.dumps(group["list"], indent=1)
    return groups


# Realistic trace types as the runner page makes them: `other` is what sendBeacon is to WebKit;
# media needs GStreamer codecs and is left out, as in generate.py.
REAL_TYPES = {"image": "image", "script": "script", "style-sheet": "style-sheet", "font": "font", "fetch": "fetch",
              "ping": "ping", "other": "beacon", "websocket": "websocket", "popup": "popup"}


def realistic_groups(list_path, trace_path, pages, seed):
    """A seeded sample of `pages` pages of a realistic trace, each a group with the real list:
    its `page` line is the navigation, its requests what the runner page makes."""
    found, current = [], None
    with open(trace_path, encoding="utf-8") as handle:
        for line in handle:
            fields = line.split()
            if not fields or fields[0].startswith("#") or fields[0].startswith("policy:"):
                continue
            kind, url = (fields[0], fields[1]) if len(fields) > 1 else ("other", fields[0])
            if kind == "page":
                current = {"page": url, "plan": {"requests": [], "frames": []}}
                found.append(current)
            elif current is not None and kind == "child-document":
                current["plan"]["frames"].append({"url": url, "requests": []})
            elif current is not None and kind in REAL_TYPES:
                current["plan"]["requests"].append({"type": REAL_TYPES[kind], "url": url})
    chosen = random.Random(seed).sample(found, min(pages, len(found)))
    return [dict(group, id="real%d" % index, listFile=os.path.abspath(list_path)) for index, group in enumerate(chosen)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("webpolicy")
    parser.add_argument("--seed", type=int, default=None, help="replay a run (printed by every run)")
    parser.add_argument("--groups", type=int, default=200, help="rule lists to generate (about 12 requests each)")
    parser.add_argument("--keep", help="write each group's list and trace here")
    parser.add_argument("--lanes", type=int, default=5, help="WebKit processes replaying at once")
    parser.add_argument("--real-list", help="a real content-blocker list: replay pages of --real-trace with it instead")
    parser.add_argument("--real-trace", help="a realistic trace (webpolicy-simulate-bench --write-trace)")
    parser.add_argument("--pages", type=int, default=20, help="pages of --real-trace to replay")
    arguments = parser.parse_args()
    if bool(arguments.real_list) != bool(arguments.real_trace):
        parser.error("--real-list and --real-trace go together")
    seed = arguments.seed if arguments.seed is not None else int.from_bytes(os.urandom(4), "big")
    webpolicy = os.path.abspath(arguments.webpolicy)
    workdir = arguments.keep or tempfile.mkdtemp(prefix="webpolicy-replay-")
    os.makedirs(workdir, exist_ok=True)
    print("replay_conformance: seed %d (rerun with --seed %d)" % (seed, seed), flush=True)
    started = time.time()

    if arguments.real_list:
        raws = realistic_groups(arguments.real_list, arguments.real_trace, arguments.pages, seed)
    else:
        raws = facts() + generate.groups(seed, arguments.groups)
    groups = [Group(raw, workdir) for raw in raws]
    if arguments.real_list:
        # Realistic pages are https with https requests: no upgrade to plan for.
        simulate_all(webpolicy, os.path.abspath(arguments.real_list), groups)
    else:
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            list(pool.map(lambda group: group.prepare(webpolicy), groups))
    failed = [group for group in groups if group.error]
    for group in failed:
        print("DISAGREE %s: webpolicy cannot simulate the list %s: %s" % (group.id, group.list_path, group.error))
    for group in groups:
        if not group.error and len(group.predictions) != len(group.cases):
            group.error = "simulate answered %d lines for %d requests" % (len(group.predictions), len(group.cases))
    groups = [group for group in groups if not group.error]
    simulated = time.time()

    results, console = run_webkit(groups, workdir, arguments.lanes)

    total_disagreements = len(failed)
    compared, skipped = Counter(), Counter()
    found = {}
    for group in groups:
        disagreements, group_compared, group_skipped = compare(group, results[group.id], console.get(group.id, []))
        compared.update(group_compared)
        skipped.update(group_skipped)
        if disagreements:
            found[group.id] = disagreements
    # A disagreement counts when WebKit repeats it: a group that disagreed is replayed once
    # more, and what WebKit does differently the second time (a late beacon) is reported as
    # unstable, not as a simulator bug.
    unstable = 0
    if found:
        again, again_console = run_webkit([group for group in groups if group.id in found], os.path.join(workdir, "again"), 1)
        for group in groups:
            if group.id not in found:
                continue
            repeated = {where for where, _, _ in compare(group, again[group.id], again_console.get(group.id, []))[0]}
            for where, webkit, mine in found[group.id]:
                if where not in repeated:
                    unstable += 1
                    print("UNSTABLE in %s (seed %d): WebKit did not repeat this on a second replay, not counted\n  %s\n    %s\n    %s" % (
                        group.id, seed, where, webkit, mine))
            found[group.id] = [item for item in found[group.id] if item[0] in repeated]
    # A load WebKit never made (no proxy record, no content-blocker message) while webpolicy
    # lets it through may be one the crowded page did not get to — a realistic page makes 20
    # to 60 loads — rather than one a rule blocks: it is asked for again with the page making
    # it alone, and counts only if WebKit still does not make it.
    crowded = 0
    candidates = [(group, item) for group in groups for item in found.get(group.id, [])
                  if UNREACHED in item[1] and not item[2].startswith("webpolicy: block")]
    if candidates:
        alone_dir = os.path.join(workdir, "alone")
        os.makedirs(alone_dir, exist_ok=True)
        singles = [(group, item, alone(group, item[0], index, alone_dir)) for index, (group, item) in enumerate(candidates)]
        singles = [(group, item, single) for group, item, single in singles if single is not None]
        if singles:
            if arguments.real_list:
                simulate_all(webpolicy, os.path.abspath(arguments.real_list), [single for _, _, single in singles])
            else:
                for _, _, single in singles:
                    single.prepare(webpolicy)
            runnable = [single for _, _, single in singles if not single.error and len(single.predictions) == len(single.cases)]
            single_results, single_console = run_webkit(runnable, alone_dir, 1)
            for group, item, single in singles:
                if single not in runnable:
                    continue
                # Counted as crowded only when WebKit really made the load alone (the proxy
                # saw it), not merely when the second replay found nothing to disagree on.
                request = single.cases[-1][1]
                made = {seen_key(seen) for seen in single_results[single.id]["seen"]}
                if network_key(request["url"]) in made:
                    crowded += 1
                    found[group.id] = [other for other in found[group.id] if other is not item]
                    print("CROWDED in %s (seed %d): WebKit did not make this load in the full page and made it alone, not counted\n  %s\n    %s\n    %s" % (
                        group.id, seed, *item))
    replayed = time.time()
    for group in groups:
        disagreements = found.get(group.id)
        if disagreements:
            total_disagreements += len(disagreements)
            fact = " (fact: %s)" % group.raw["fact"] if "fact" in group.raw else ""
            listed = group.raw["list"] if "list" in group.raw else "(the list in %s)" % group.raw["listFile"]
            for number, more in enumerate(group.raw.get("moreLists", []), start=2):
                listed += "\nthen list %d:\n%s" % (number, more)
            print("DISAGREE in %s%s (seed %d), page %s, list:\n%s" % (group.id, fact, seed, group.raw["page"], listed))
            for where, webkit, mine in disagreements:
                print("  %s\n    %s\n    %s" % (where, webkit, mine))
    cases = sum(compared.values())
    print("replay_conformance: seed %d, %d lists (%d facts, %d web views with several lists), %d requests compared (%s), %d skipped behind a blocked page or frame, "
          "%d disagreements, %d unstable, %d not made in a crowded page; webpolicy %.1f s, WebKit %.1f s" % (
              seed, len(groups) + len(failed), sum(1 for group in groups if "fact" in group.raw), sum(1 for group in groups if group.raw.get("moreLists")),
              cases, ", ".join("%s %d" % item for item in sorted(compared.items())),
              sum(skipped.values()), total_disagreements, unstable, crowded, simulated - started, replayed - simulated))
    if total_disagreements:
        print("replay_conformance: lists and traces are in %s" % workdir)
        sys.exit(1)
    if not arguments.keep:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
