"""Unit tests of the replay harness's own logic: that it reports a disagreement whenever
WebKit and webpolicy differ, and only then. No WebKit needed.

usage: python3 ci/webkit-conformance/test_replay_conformance.py
"""
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generate  # noqa: E402
import replay_conformance as replay  # noqa: E402


def prediction(url, verdict="allow", final=None, actions=()):
    return {"url": url, "verdict": verdict, "finalURL": final or url.split("#")[0], "actions": list(actions), "matchedRules": []}


def seen(scheme, host, path, cookie="wpc=1", port=None):
    return {"scheme": scheme, "host": host, "port": port or (443 if scheme in ("https", "wss") else 80), "path": path,
            "method": "GET", "cookie": cookie}


class FakeGroup:
    def __init__(self, cases, predictions):
        self.cases = cases
        self.predictions = predictions


def page_and(request, predicted):
    page = ("page", {"type": "top-document", "url": "http://top.example/"}, None)
    return FakeGroup([page, ("request", request, None)], [prediction("http://top.example/"), predicted])


class CompareTests(unittest.TestCase):
    def compare(self, group, seen_requests, console=()):
        result = {"seen": [seen("http", "top.example", "/")] + seen_requests, "outcomes": {"requests": [None], "frames": []}}
        disagreements, compared, _ = replay.compare(group, result, list(console))
        return disagreements, sum(compared.values())

    def test_agreeing_load(self):
        group = page_and({"type": "image", "url": "http://a.example/x.png#frag"}, prediction("http://a.example/x.png#frag"))
        disagreements, compared = self.compare(group, [seen("http", "a.example", "/x.png")])
        self.assertEqual(disagreements, [])
        self.assertEqual(compared, 2)

    def test_block_webpolicy_missed(self):
        group = page_and({"type": "image", "url": "http://a.example/ad.png"}, prediction("http://a.example/ad.png"))
        console = ["CONSOLE CONTENTBLOCKER INFO Content blocker prevented frame displaying http://top.example/ from loading a resource from http://a.example/ad.png"]
        disagreements, _ = self.compare(group, [], console)
        self.assertEqual(len(disagreements), 1)
        self.assertIn("WebKit: block (console: content blocker)", disagreements[0][1])

    def test_block_webkit_did_not_do(self):
        group = page_and({"type": "script", "url": "http://a.example/ad.js"}, prediction("http://a.example/ad.js", "block", actions=["block"]))
        disagreements, _ = self.compare(group, [seen("http", "a.example", "/ad.js")])
        self.assertEqual(len(disagreements), 1)

    def test_upgrade_agrees_only_when_it_arrives_as_https(self):
        predicted = prediction("http://a.example/x", "upgrade", "https://a.example/x", ["make-https"])
        group = page_and({"type": "fetch", "url": "http://a.example/x"}, predicted)
        self.assertEqual(self.compare(group, [seen("https", "a.example", "/x")])[0], [])
        self.assertEqual(len(self.compare(group, [seen("http", "a.example", "/x")])[0]), 1)

    def test_cookies(self):
        stripped = prediction("http://a.example/x", actions=["block-cookies"])
        group = page_and({"type": "image", "url": "http://a.example/x"}, stripped)
        self.assertEqual(self.compare(group, [seen("http", "a.example", "/x", cookie=None)])[0], [])
        self.assertEqual(len(self.compare(group, [seen("http", "a.example", "/x")])[0]), 1)

    def test_network_key_ignores_scheme_default_ports_and_escapes(self):
        self.assertEqual(replay.network_key("http://A.example:80/%7Euser?q=%41"), replay.network_key("https://a.example/~user?q=A"))
        self.assertNotEqual(replay.network_key("http://a.example:8080/"), replay.network_key("http://a.example/"))

    def test_requests_behind_a_blocked_page_are_skipped(self):
        group = page_and({"type": "image", "url": "http://a.example/x"}, prediction("http://a.example/x"))
        group.predictions[0] = prediction("http://top.example/", "block", actions=["block"])
        result = {"seen": [], "outcomes": None}
        disagreements, compared, skipped = replay.compare(group, result, [])
        self.assertEqual(disagreements, [])
        self.assertEqual((sum(compared.values()), sum(skipped.values())), (1, 1))

    def test_requests_behind_a_blocked_page_with_an_ambiguous_url_are_skipped(self):
        page = ("page", {"type": "top-document", "url": "http://top.example/x.html"}, None)
        again = ("request", {"type": "style-sheet", "url": "http://top.example/./x.html"}, None)
        later = ("request", {"type": "image", "url": "http://a.example/i.png"}, None)
        group = FakeGroup([page, again, later], [prediction("http://top.example/x.html", "block"), prediction("http://top.example/x.html"),
                                                 prediction("http://a.example/i.png")])
        result = {"seen": [], "outcomes": {"requests": [None, None], "frames": []}}
        disagreements, compared, skipped = replay.compare(group, result, [])
        self.assertEqual(disagreements, [])
        self.assertEqual(sum(compared.values()), 0)
        self.assertEqual(skipped["same URL twice"], 1)

    def test_shared_records_fold_back_into_their_requests(self):
        output = "\n".join(json.dumps(line) for line in [
            {"shared": "s1", "top": "https://a.example/", "matchedRules": [{"rule": 0}, {"rule": 2}], "hiddenSelectors": [".ad"]},
            {"url": "https://a.example/x", "verdict": "block", "shared": "s1", "matchedRules": [{"rule": 1}], "hiddenSelectors": []},
            {"url": "https://a.example/y", "verdict": "allow", "matchedRules": [], "hiddenSelectors": []},
            {"summary": {"requests": 2}},
        ])
        requests = replay.requests_of(output)
        self.assertEqual([request["url"] for request in requests], ["https://a.example/x", "https://a.example/y"])
        self.assertEqual([rule["rule"] for rule in requests[0]["matchedRules"]], [0, 1, 2])
        self.assertEqual(requests[0]["hiddenSelectors"], [".ad"])

    def test_secured_makes_http_and_ws_secure(self):
        self.assertEqual(replay.secured("http://a.example:80/x"), "https://a.example/x")
        self.assertEqual(replay.secured("ws://a.example/x"), "wss://a.example/x")
        self.assertEqual(replay.secured("https://a.example/x"), "https://a.example/x")


class GeneratorTests(unittest.TestCase):
    def test_same_seed_same_groups(self):
        self.assertEqual(generate.groups(42, 5), generate.groups(42, 5))
        self.assertNotEqual(generate.groups(42, 5), generate.groups(43, 5))

    def test_lists_stay_in_the_webkit_subset(self):
        for group in generate.groups(7, 50):
            for rule in json.loads(group["list"]):
                trigger = rule["trigger"]
                self.assertTrue(trigger["url-filter"].isascii())
                self.assertNotIn("|", trigger["url-filter"])
                conditions = [key for key in trigger if key.startswith(("if-", "unless-"))]
                self.assertLessEqual(len(conditions), 1)

    def test_never_engine_upgraded_hosts(self):
        text = json.dumps(generate.groups(11, 50))
        self.assertNotIn("webkit.org", text)
        self.assertNotIn("opengl.org", text)


class TraceTests(unittest.TestCase):
    def test_beacon_is_written_as_other(self):
        self.assertEqual(replay.trace_line({"type": "beacon", "url": "https://a.example/b", "method": "POST"}),
                         "other https://a.example/b method=POST")
        self.assertEqual(replay.trace_line({"type": "image", "url": "https://a.example/i"}, "https://f.example/"),
                         "image https://a.example/i frame=https://f.example/")

    def test_some_groups_load_their_rules_as_several_lists(self):
        several = [group for group in generate.groups(11, 120) if group.get("moreLists")]
        self.assertTrue(10 <= len(several) <= 50, len(several))
        for group in several:
            parts = [json.loads(group["list"])] + [json.loads(text) for text in group["moreLists"]]
            self.assertIn(len(parts), (2, 3))
            self.assertTrue(all(parts), "no list is empty")

    def test_several_lists_are_written_and_given_in_order(self):
        with tempfile.TemporaryDirectory() as folder:
            raw = {"id": "g5", "list": "[1]", "moreLists": ["[2]", "[3]"], "page": "http://a.example/", "plan": {"requests": [], "frames": []}}
            group = replay.Group(raw, folder)
            self.assertEqual([os.path.basename(path) for path in group.list_paths], ["g5.json", "g5-2.json", "g5-3.json"])
            with open(group.list_paths[2], encoding="utf-8") as handle:
                self.assertEqual(handle.read(), "[3]")

    def test_group_files(self):
        with tempfile.TemporaryDirectory() as folder:
            group = replay.Group(generate.groups(3, 1)[0], folder)
            with open(group.list_path, encoding="utf-8") as handle:
                self.assertIsInstance(json.load(handle), list)

    def test_an_unreached_load_is_asked_for_alone(self):
        with tempfile.TemporaryDirectory() as folder:
            raw = {"id": "real7", "page": "https://site.example/", "listFile": "/lists/easy.json",
                   "plan": {"requests": [{"type": "image", "url": "https://cdn.example/a.png"}, {"type": "script", "url": "https://cdn.example/b.js"}],
                            "frames": [{"url": "https://frame.example/", "requests": [{"type": "image", "url": "https://frame.example/c.png"}]}]}}
            group = replay.Group(raw, folder)
            group._plan(True)
            single = replay.alone(group, "script https://cdn.example/b.js", 0, folder)
            self.assertEqual(single.id, "real7-alone0")
            self.assertEqual(single.raw["plan"], {"requests": [{"type": "script", "url": "https://cdn.example/b.js"}], "frames": []})
            single._plan(True)
            self.assertEqual([role for role, _, _ in single.cases], ["page", "request"])
            inner = replay.alone(group, "image https://frame.example/c.png in frame https://frame.example/", 1, folder)
            self.assertEqual(inner.raw["plan"], {"requests": [], "frames": [{"url": "https://frame.example/", "requests": [{"type": "image", "url": "https://frame.example/c.png"}]}]})
            # The page and frames themselves are never asked for alone.
            self.assertIsNone(replay.alone(group, "child-document https://frame.example/", 2, folder))
            self.assertEqual(group.raw["plan"]["requests"][1]["url"], "https://cdn.example/b.js", "the group itself is left as it was")

    def test_an_unreached_load_is_reported_as_such(self):
        group = page_and({"type": "image", "url": "http://a.example/x.png"}, prediction("http://a.example/x.png"))
        result = {"seen": [seen("http", "top.example", "/")], "outcomes": {"requests": [None], "frames": []}}
        disagreements, _, _ = replay.compare(group, result, [])
        self.assertIn(replay.UNREACHED, disagreements[0][1])
        self.assertEqual(disagreements[0][0], replay.where_of({"type": "image", "url": "http://a.example/x.png"}, None))


if __name__ == "__main__":
    unittest.main()
