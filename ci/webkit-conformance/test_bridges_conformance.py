"""Unit tests of the bridges lane's own logic: the message lines it writes and that it reports a
disagreement whenever the app's handler heard a post simulate refuses, or the reverse. No WebKit
needed.

usage: python3 ci/webkit-conformance/test_bridges_conformance.py
"""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bridges_conformance as lane  # noqa: E402


def scenario(page=("cart",), frame=(), world=("checkout", ())):
    return {"id": "s", "posts": {"page": list(page), "frame": list(frame), "world": {"name": world[0], "handlers": list(world[1])}}}


def simulated(verdicts):
    return {post: {"verdict": verdict, "reason": "because"} for post, verdict in verdicts.items()}


def result(delivered=(), settled=True, errors=()):
    return {"settled": settled, "errors": list(errors), "delivered": [
        {"frame": frame, "world": world, "handler": handler, "heard": heard, "reason": None if heard else "refused"}
        for (frame, world, handler), heard in delivered]}


class PostTests(unittest.TestCase):
    def test_the_app_world_posts_from_both_frames(self):
        self.assertEqual(lane.posts(scenario(page=["cart"], frame=["widgets"], world=("checkout", ["session"]))), [
            ("main", "page", "cart"), ("child", "page", "widgets"), ("main", "checkout", "session"), ("child", "checkout", "session")])

    def test_a_post_from_the_iframe_is_a_child_frame_line_at_the_partner(self):
        self.assertEqual(lane.trace_line(("child", "checkout", "session")),
                         "message https://widgets.partner.example/frame handler=session frame=child world=checkout")
        self.assertEqual(lane.trace_line(("main", "page", "cart")), "message https://www.shop.example/ handler=cart frame=main world=page")

    def test_every_scenario_has_a_distinct_id_and_its_policy_exists(self):
        ids = [entry[0] for entry in lane.SCENARIOS]
        self.assertEqual(len(ids), len(set(ids)))
        for entry in lane.SCENARIOS:
            self.assertTrue(os.path.exists(os.path.join(lane.HERE, "bridges", entry[1])), entry[1])


class CompareTests(unittest.TestCase):
    def test_heard_when_allowed_and_silent_when_blocked_agree(self):
        case = scenario(page=["cart", "nope"])
        verdicts = simulated({("main", "page", "cart"): "allow", ("main", "page", "nope"): "block"})
        self.assertEqual(lane.compare(case, verdicts, result([(("main", "page", "cart"), True)])), [])

    def test_a_refused_post_the_app_heard_disagrees(self):
        case = scenario(page=["cart"])
        problems = lane.compare(case, simulated({("main", "page", "cart"): "block"}), result([(("main", "page", "cart"), True)]))
        self.assertEqual(len(problems), 1)
        self.assertIn("simulate says block", problems[0])
        self.assertIn("let the app hear it", problems[0])

    def test_an_allowed_post_webkit_never_delivered_disagrees(self):
        case = scenario(page=["cart"])
        problems = lane.compare(case, simulated({("main", "page", "cart"): "allow"}), result([]))
        self.assertEqual(len(problems), 1)
        self.assertIn("WebKit never delivered it", problems[0])

    def test_an_allowed_post_the_gate_refused_disagrees_with_the_gates_reason(self):
        case = scenario(page=["cart"])
        problems = lane.compare(case, simulated({("main", "page", "cart"): "allow"}), result([(("main", "page", "cart"), False)]))
        self.assertIn("the gate refused it: refused", problems[0])

    def test_a_post_delivered_twice_counts_as_heard_if_either_was(self):
        case = scenario(page=["cart"])
        delivered = result([(("main", "page", "cart"), False), (("main", "page", "cart"), True)])
        self.assertEqual(lane.compare(case, simulated({("main", "page", "cart"): "allow"}), delivered), [])

    def test_an_unsettled_run_registration_errors_and_missing_lines_are_reported(self):
        case = scenario(page=["cart"])
        problems = lane.compare(case, {}, result([], settled=False, errors=["no such bridge"]))
        self.assertTrue(any("could not register" in problem for problem in problems), problems)
        self.assertTrue(any("never settled" in problem for problem in problems), problems)
        self.assertTrue(any("simulate gave no line" in problem for problem in problems), problems)


if __name__ == "__main__":
    unittest.main()
