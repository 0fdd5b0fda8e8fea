"""Unit tests of the roles lane's own logic: the trace lines it writes from what the app did,
and that it reports a disagreement whenever WebKit, the servers or the gate did other than
simulate says — a binding, a load, a link, a message. No WebKit needed.

usage: python3 ci/webkit-conformance/test_roles_conformance.py
"""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import roles_conformance as lane  # noqa: E402

PAGE = "https://ha.example.com/lovelace/0"


def verdict(verdict, handed=False):
    return {"verdict": verdict, "reason": "because", "handedToSystem": handed}


def loaded(shown, before=None, requests=(), opened=()):
    return {"shown": shown, "shownBefore": before, "requests": list(requests), "opened": list(opened), "settled": True}


def posted(heard, frame="main", handler="getExternalAuth"):
    return {"shownBefore": PAGE, "settled": True, "script": "posted",
            "delivered": [{"handler": handler, "frame": frame, "origin": "https://ha.example.com", "heard": heard, "reason": None if heard else "refused"}]}


class TraceLines(unittest.TestCase):
    def test_each_step_is_the_line_a_team_writes(self):
        self.assertEqual(lane.trace_line({"do": "bind", "role": "server", "url": "http://localhost:8123"}, {}), "bind server=http://localhost:8123")
        self.assertEqual(lane.trace_line({"do": "load", "url": PAGE}, {}), "page %s by=app" % PAGE)
        self.assertEqual(lane.trace_line({"do": "link", "url": PAGE}, {}), "page %s by=link" % PAGE)
        post = {"do": "post", "handler": "externalBus", "frame": "main"}
        self.assertEqual(lane.trace_line(post, {"shownBefore": PAGE}), "message %s handler=externalBus" % PAGE)
        post["frame"] = "child"
        self.assertEqual(lane.trace_line(post, {"shownBefore": PAGE}), "message https://ha.example.com/local/card.html handler=externalBus frame=child")

    def test_requests_are_compared_as_the_servers_record_them(self):
        self.assertEqual(lane.as_requested("http://localhost:8123/lovelace/0"), "http://localhost:8123/lovelace/0")
        self.assertEqual(lane.as_requested("https://ha.example.com"), "https://ha.example.com:443/")
        self.assertEqual(lane.as_requested("http://dash.example.net/?a=1"), "http://dash.example.net:80/?a=1")


class Compare(unittest.TestCase):
    def test_a_binding_agrees_only_with_the_same_answer(self):
        bind = {"do": "bind", "role": "server", "url": "http://dash.example.net"}
        self.assertEqual(lane.compare(bind, {"bound": False, "reason": "no"}, verdict("block")), [])
        self.assertEqual(len(lane.compare(bind, {"bound": True}, verdict("block"))), 1)
        self.assertEqual(len(lane.compare(bind, {"bound": False, "reason": "no"}, verdict("allow"))), 1)

    def test_an_allowed_load_must_be_shown_and_reach_its_server(self):
        load = {"do": "load", "url": PAGE}
        seen = [lane.as_requested(PAGE)]
        self.assertEqual(lane.compare(load, loaded(PAGE, requests=seen), verdict("allow")), [])
        self.assertEqual(len(lane.compare(load, loaded(None), verdict("allow"))), 1)
        self.assertEqual(len(lane.compare(load, loaded(PAGE), verdict("allow"))), 1, "shown but no server saw it")

    def test_a_refused_load_never_reaches_a_server(self):
        load = {"do": "load", "url": PAGE}
        self.assertEqual(lane.compare(load, loaded(None), verdict("block")), [])
        self.assertEqual(lane.compare(load, loaded(PAGE, before=PAGE), verdict("block")), [], "the view already showed it and did not move")
        self.assertEqual(len(lane.compare(load, loaded(None, requests=[lane.as_requested(PAGE)]), verdict("block"))), 1)
        self.assertEqual(len(lane.compare(load, loaded(PAGE, before="https://other.example/"), verdict("block"))), 1)

    def test_a_link_handed_to_the_system(self):
        link = {"do": "link", "url": "https://www.home-assistant.io/docs/"}
        self.assertEqual(lane.compare(link, loaded(PAGE, before=PAGE, opened=[link["url"]]), verdict("allow", handed=True)), [])
        self.assertEqual(len(lane.compare(link, loaded(PAGE, before=PAGE), verdict("allow", handed=True))), 1)
        self.assertEqual(len(lane.compare(link, loaded(PAGE, before=PAGE, opened=[link["url"]]), verdict("block"))), 1)

    def test_a_message_is_heard_exactly_when_allowed(self):
        post = {"do": "post", "handler": "getExternalAuth", "frame": "main"}
        self.assertEqual(lane.compare(post, posted(True), verdict("allow")), [])
        self.assertEqual(lane.compare(post, posted(False), verdict("block")), [])
        self.assertEqual(len(lane.compare(post, posted(True), verdict("block"))), 1)
        self.assertEqual(len(lane.compare(post, posted(False), verdict("allow"))), 1)
        self.assertEqual(len(lane.compare(post, posted(True, frame="child"), verdict("allow"))), 1, "the iframe's post is not the main frame's")


if __name__ == "__main__":
    unittest.main()
