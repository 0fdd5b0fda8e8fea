#!/usr/bin/python3
"""Posts script messages in a real headless WebKit (WebKitGTK 4.1) to handlers the app
registered through its message gate, and records what reached the app's handler.

usage: xvfb-run -a /usr/bin/python3 webkit_messages.py PROBE PLAN.json RESULTS.json

PROBE is webpolicy-app-probe: the app's `ScriptMessageGate` over a compiled policy. PLAN is
[{"id", "compiled": DIR, "page": URL, "frame": URL, "javascript": bool, "handlers": [NAME], "skipsGate": bool,
"posts": {"page": [NAME], "frame": [NAME], "world": {"name": WORLD, "handlers": [NAME]}}}]. For each,
the probe loads the policy and the app registers each handler through the gate, which says
in which content worlds it adds it; they are registered in a new user content manager
(`register_script_message_handler`, `…_in_world`), so WebKit defines them where an app's
would be. A new web view loads `page`, whose markup holds an iframe of `frame`; the page's own
script posts to `posts.page` from the main frame and to `posts.frame` from the iframe (page
world), and a user script of the app's world (`UserScript.new_for_world`, all frames) posts
to `posts.world.handlers` from both. `javascript: false` turns the page's scripts off
(`enable-javascript-markup`, WebKitGTK's `allowsContentJavaScript`). What WebKit delivers
(`script-message-received`) goes to the probe, whose gate decides; RESULTS is, per plan
entry, every post WebKit delivered and whether the app's handler heard it. `skipsGate` is
the app that adds its handlers straight to the user content controller, in the page world,
and hears everything WebKit delivers: CI shows the lane catches it.

WebKitGTK's signal carries the message alone — no frame and no origin, unlike
`WKScriptMessage.frameInfo` — so each post says in its body which frame and world it comes
from and `location`'s origin; the harness made those pages and scripts, so that is the
scenario's truth. What WebKit decides is whether a post arrives at all: in which worlds a
handler is visible, whether a cross-origin iframe sees it, whether scripts run.
"""
import json
import os
import sys
import time
import urllib.parse

import gi

gi.require_version("WebKit2", "4.1")
gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk, WebKit2  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import recording_proxy  # noqa: E402
from webkit_navigation import Probe, proxied_web_context  # noqa: E402

QUIET_SECONDS = 0.6
SCENARIO_TIMEOUT_SECONDS = 10

# Every document: posts to the handlers its query names, from the page world. The top page's
# iframe is static markup the proxy adds (`__iframe=`), so it exists with scripts off too.
PAGE = b"""<!doctype html><meta charset="utf-8"><title>webpolicy messages</title><body><script>
"use strict";
const query = new URLSearchParams(location.search);
const frame = window === window.top ? "main" : "child";
for (const name of (query.get("post") || "").split(",").filter(Boolean)) {
  try {
    window.webkit.messageHandlers[name].postMessage({handler: name, frame: frame, world: "page", origin: location.origin});
  } catch (error) {
    // The handler is not defined in this world: nothing is posted.
  }
}
</script>"""

# The app's user script, in its own world, in every frame.
WORLD_SCRIPT = """
(function () {
  const frame = window === window.top ? "main" : "child";
  for (const name of %s) {
    try {
      window.webkit.messageHandlers[name].postMessage({handler: name, frame: frame, world: %s, origin: location.origin});
    } catch (error) {}
  }
})();
"""


def with_query(url, **values):
    parts = urllib.parse.urlsplit(url)
    query = urllib.parse.urlencode(values)
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, parts.path, query, ""))


class Messenger:
    def __init__(self, proxy_port, probe):
        self.context = proxied_web_context(proxy_port, "webpolicy-messages-data-")
        self.window = Gtk.OffscreenWindow()
        self.window.show_all()
        self.probe = probe
        self.view = None
        self.last_event = time.monotonic()

    def _deliver(self, record, name, value):
        self.last_event = time.monotonic()
        body = json.loads(value.to_json(0) or "null") or {}
        origin = urllib.parse.urlsplit(body.get("origin", ""))
        if record["skipsGate"]:
            # The app added its handler straight to the user content controller: it hears all.
            answer = {"delivered": True, "heard": True, "reason": "no gate"}
        else:
            answer = self.probe.ask({
                "event": "message", "handler": name, "world": body.get("world", "page"), "isMainFrame": body.get("frame") == "main",
                "origin": {"scheme": origin.scheme, "host": origin.hostname or "", "port": origin.port or 0}, "body": body,
            })
        record["delivered"].append({
            "handler": name, "frame": body.get("frame"), "world": body.get("world"), "origin": body.get("origin"),
            "gate": answer.get("delivered"), "heard": answer.get("heard"), "reason": answer.get("reason"),
        })

    def run(self, scenario):
        record = {"id": scenario["id"], "registered": {}, "delivered": [], "errors": [], "skipsGate": scenario.get("skipsGate", False)}
        self.probe.ask({"event": "load", "compiled": scenario["compiled"]})
        content = WebKit2.UserContentManager()
        for name in scenario["handlers"]:
            answer = self.probe.ask({"event": "register", "handler": name})
            if record["skipsGate"]:
                # `add(_:name:)` with no world: the page world, whatever the policy says.
                answer = {"worlds": ["page"], "reply": False}
            if "error" in answer:
                record["errors"].append(answer["error"])
                continue
            if answer["reply"]:
                # The lane's policies declare none: WebKitGTK's reply signal is another shape.
                record["errors"].append("bridge '%s' replies; the lane posts to plain handlers only" % name)
                continue
            record["registered"][name] = answer["worlds"]
            for world in answer["worlds"]:
                if world == "page":
                    content.register_script_message_handler(name)
                else:
                    content.register_script_message_handler_in_world(name, world)
            content.connect("script-message-received::" + name, lambda _content, result, name=name: self._deliver(record, name, result.get_js_value()))
        world = scenario["posts"].get("world")
        if world:
            source = WORLD_SCRIPT % (json.dumps(world["handlers"]), json.dumps(world["name"]))
            content.add_script(WebKit2.UserScript.new_for_world(
                source, WebKit2.UserContentInjectedFrames.ALL_FRAMES, WebKit2.UserScriptInjectionTime.END, world["name"], None, None))
        settings = WebKit2.Settings()
        settings.set_property("enable-javascript-markup", scenario["javascript"])
        if self.view is not None:
            self.window.remove(self.view)
            self.view.destroy()
        self.view = WebKit2.WebView(web_context=self.context, user_content_manager=content, settings=settings)
        self.window.add(self.view)
        self.view.show()
        frame = with_query(scenario["frame"], post=",".join(scenario["posts"]["frame"]))
        self.last_event = time.monotonic()
        self.view.load_uri(with_query(scenario["page"], post=",".join(scenario["posts"]["page"]), __iframe=frame))
        deadline = time.monotonic() + SCENARIO_TIMEOUT_SECONDS
        context = GLib.MainContext.default()
        while time.monotonic() < deadline:
            if not context.iteration(False):
                time.sleep(0.005)
            if time.monotonic() - self.last_event >= QUIET_SECONDS and not self.view.is_loading():
                break
        record["settled"] = time.monotonic() < deadline
        return record


def main():
    probe_path, plan_path, results_path = sys.argv[1:4]
    with open(plan_path, encoding="utf-8") as handle:
        plan = json.load(handle)
    port, _recording, stop = recording_proxy.start(PAGE)
    probe = Probe(probe_path, plan[0]["compiled"])
    messenger = Messenger(port, probe)
    results = [messenger.run(scenario) for scenario in plan]
    probe.close()
    stop()
    with open(results_path, "w", encoding="utf-8") as handle:
        json.dump(results, handle, indent=1)


if __name__ == "__main__":
    main()
