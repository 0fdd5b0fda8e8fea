"""Unit tests of the navigation lane's own logic: the traces it writes and that it reports a
disagreement whenever WebKit (with the runtime deciding) and simulate differ. No WebKit needed.

usage: python3 ci/webkit-conformance/test_navigation_conformance.py
"""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import navigation_conformance as lane  # noqa: E402


def decision(url, initiator, decided="allow", kind="navigation", webkit_type="other", redirect=False):
    return {"kind": kind, "url": url, "webkitType": webkit_type, "webkitRedirect": redirect,
            "initiator": initiator, "decision": decided, "reason": None}


START_LOAD = decision(lane.START, "script")


def scenario(how, target, page, handed=()):
    return {"id": "s", "do": how, "target": target, "trace": lane.trace_lines(how, target),
            "simulated": {"page": page, "handedToSystem": list(handed), "verdicts": []}}


def result(landed, decisions, opened=(), settled=True):
    return {"startedAt": lane.START, "landed": landed, "opened": list(opened), "settled": settled,
            "decisions": [START_LOAD] + decisions, "events": []}


class TraceTests(unittest.TestCase):
    def test_a_redirect_adds_its_target_as_a_redirect_line(self):
        self.assertEqual(lane.trace_lines("link", lane.redirect_to("https://news.example/a?b=1")), [
            "page https://www.shop.example/__redirect?to=https%3A%2F%2Fnews.example%2Fa%3Fb%3D1 by=link",
            "page https://news.example/a?b=1 by=redirect"])

    def test_new_windows_are_popups_a_blank_link_is_the_users(self):
        self.assertEqual(lane.trace_lines("blank", lane.OUTSIDE), ["popup %s by=link" % lane.OUTSIDE])
        self.assertEqual(lane.trace_lines("open", lane.OUTSIDE), ["popup %s by=script" % lane.OUTSIDE])
        self.assertEqual(lane.trace_lines("script", lane.INSIDE), ["page %s by=script" % lane.INSIDE])

    def test_every_scenario_has_a_distinct_id(self):
        ids = [id for id, _, _ in lane.SCENARIOS]
        self.assertEqual(len(ids), len(set(ids)))


class CompareTests(unittest.TestCase):
    def test_agreement_is_silent(self):
        case = scenario("link", lane.OUTSIDE, lane.START, handed=[lane.OUTSIDE])
        self.assertEqual(lane.compare(case, result(lane.START, [decision(lane.OUTSIDE, "link", "cancel-and-open", webkit_type="link-clicked")],
                                                   opened=[lane.OUTSIDE])), [])

    def test_a_view_that_lands_elsewhere_disagrees(self):
        case = scenario("script", lane.OUTSIDE, lane.START)
        problems = lane.compare(case, result(lane.OUTSIDE, [decision(lane.OUTSIDE, "script")]))
        self.assertTrue(any("landed on https://news.example/story" in problem for problem in problems), problems)

    def test_a_hand_off_on_one_side_only_disagrees(self):
        case = scenario("link", lane.OUTSIDE, lane.START)
        problems = lane.compare(case, result(lane.START, [decision(lane.OUTSIDE, "link", "cancel-and-open")], opened=[lane.OUTSIDE]))
        self.assertTrue(any("handed ['https://news.example/story'] to the system" in problem for problem in problems), problems)

    def test_a_redirect_read_as_the_users_link_disagrees_twice(self):
        target = lane.redirect_to(lane.OUTSIDE)
        case = scenario("link", target, lane.START)
        problems = lane.compare(case, result(lane.START, [
            decision(target, "link", webkit_type="link-clicked"),
            decision(lane.OUTSIDE, "link", "cancel", webkit_type="link-clicked", redirect=True)]))
        self.assertTrue(any("but WebKit calls it a redirect" in problem for problem in problems), problems)
        self.assertTrue(any("the trace says by=redirect" in problem for problem in problems), problems)

    def test_a_navigation_webkit_never_asked_about_disagrees(self):
        case = scenario("blank", lane.INSIDE, lane.START)
        problems = lane.compare(case, result(lane.START, []))
        self.assertEqual(problems, ["WebKit never asked about https://m.shop.example/cart (new-window)"])

    def test_a_start_page_that_never_loaded_is_reported_alone(self):
        case = scenario("link", lane.INSIDE, lane.INSIDE)
        broken = result(None, [])
        broken["startedAt"] = None
        self.assertEqual(lane.compare(case, broken), ["the start page never loaded in WebKit (the view shows None)"])


if __name__ == "__main__":
    unittest.main()
