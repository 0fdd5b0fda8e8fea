#!/usr/bin/python3
"""Drives navigations in a real headless WebKit (WebKitGTK 4.1) whose navigation decisions
are the runtime's, and records where the web view lands.

usage: xvfb-run -a /usr/bin/python3 webkit_navigation.py PROBE COMPILED_DIR PLAN.json RESULTS.json [--app-forgets-provisional-callbacks]

PROBE is webpolicy-app-probe: the delegates an app writes (NavigationDecider,
WindowDecider, RedirectTracker) over the policy `webpolicy compile` wrote to COMPILED_DIR.
This script plays WebKit's side of the app: WebKitGTK's `decide-policy` signal is what
WKNavigationDelegate's `decidePolicyFor` is on iOS, its `create` signal is WKUIDelegate's
`createWebViewWith`, and its load events are `didStartProvisionalNavigation`, `didCommit`
and `didFailProvisionalNavigation` — each is handed to the probe, and its answer carried out
(`use` / `ignore`, a window loaded in the same view or never created).

PLAN is [{"id", "start": URL, "do": "link" | "script" | "blank" | "open", "target": URL}]: for
each, a new web view loads `start` (the app's own load), then the page starts a navigation to
`target` the way `do` says — a link it clicks, `location.href`, a `target=_blank` link, or
`window.open`. A target on the recording proxy's `/__redirect?to=URL` answers with a 302.
RESULTS is, per plan entry, the view's URL once everything settled, what the runtime handed
to the system, and every decision: the URL, WebKit's navigation type, whether WebKit says it
is a redirect (`webkit_navigation_action_is_redirect`, public in WebKitGTK, SPI on iOS), and
the runtime's initiator and decision. The plan's pages have no iframes: every navigation
action is the main frame's.

With --app-forgets-provisional-callbacks, the load events are not handed on: an app whose
delegate does not forward `didStartProvisionalNavigation` and `didCommit` to the decider's
`redirects`, so that CI can show what that costs (a tapped link's redirect leaves the app).
"""
import json
import os
import subprocess
import sys
import tempfile
import time

import gi

gi.require_version("WebKit2", "4.1")
gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk, WebKit2  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import recording_proxy  # noqa: E402

QUIET_SECONDS = 0.8
SCENARIO_TIMEOUT_SECONDS = 10

# Every document is this page; the harness calls __go(how, url) in it.
PAGE = b"""<!doctype html><meta charset="utf-8"><title>webpolicy navigation</title><body><script>
"use strict";
window.__go = (how, url) => {
  if (how === "link" || how === "blank") {
    const link = document.createElement("a");
    link.href = url;
    if (how === "blank") link.target = "_blank";
    link.textContent = "go";
    document.body.appendChild(link);
    link.click();
  } else if (how === "open") {
    window.open(url);
  } else {
    location.href = url;
  }
  return "started";
};
</script>"""

# WebKitNavigationType in WebKitGTK's order, as WKNavigationType's raw values: the two enums
# list the same cases in the same order, but WebKit's `.other` is -1 on Apple platforms.
WK_NAVIGATION_TYPE = {
    "link-clicked": 0, "form-submitted": 1, "back-forward": 2, "reload": 3,
    "form-resubmitted": 4, "other": -1,
}


class Probe:
    """The app's delegates, one JSON line per callback."""

    def __init__(self, probe, compiled):
        self.process = subprocess.Popen([probe, compiled], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, event):
        self.process.stdin.write(json.dumps(event) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit("webpolicy-app-probe stopped answering")
        return json.loads(line)

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=10)


def proxied_web_context(proxy_port, prefix, direct_hosts=()):
    """A web context of its own (fresh data folder) whose every request goes through the
    recording proxy, TLS errors ignored (the proxy's certificate is self-signed) — except
    requests to `direct_hosts`, which go straight to the host (a server on 127.0.0.1)."""
    folder = tempfile.mkdtemp(prefix=prefix)
    manager = WebKit2.WebsiteDataManager(base_data_directory=folder, base_cache_directory=folder)
    manager.set_network_proxy_settings(
        WebKit2.NetworkProxyMode.CUSTOM,
        WebKit2.NetworkProxySettings.new("http://127.0.0.1:%d" % proxy_port, list(direct_hosts)))
    manager.set_tls_errors_policy(WebKit2.TLSErrorsPolicy.IGNORE)
    return WebKit2.WebContext.new_with_website_data_manager(manager)


class Navigator:
    def __init__(self, proxy_port, probe, forward_load_events=True, direct_hosts=()):
        self.context = proxied_web_context(proxy_port, "webpolicy-navigation-data-", direct_hosts)
        self.context.set_cache_model(WebKit2.CacheModel.DOCUMENT_VIEWER)
        self.settings = WebKit2.Settings()
        self.settings.set_property("javascript-can-open-windows-automatically", True)
        self.window = Gtk.OffscreenWindow()
        self.window.show_all()
        self.probe = probe
        self.forward_load_events = forward_load_events
        self.view = None
        self.last_event = time.monotonic()
        # URLs the harness loads in an iframe: WebKitGTK's navigation action does not say
        # which frame navigates, and the harness made the page, so it knows.
        self.subframe_urls = set()

    def _new_view(self, record):
        if self.view is not None:
            self.window.remove(self.view)
            self.view.destroy()
        view = self._make_view()
        view.connect("decide-policy", self._decide, record)
        view.connect("create", self._create, record)
        view.connect("load-changed", self._load_changed, record)
        view.connect("load-failed", self._load_failed, record)
        self.window.add(view)
        view.show()
        self.view = view

    def _make_view(self):
        return WebKit2.WebView(web_context=self.context, settings=self.settings)

    def _touch(self):
        self.last_event = time.monotonic()

    def _decide(self, view, decision, kind, record):
        if kind == WebKit2.PolicyDecisionType.RESPONSE:
            decision.use()
            return True
        self._touch()
        action = decision.get_navigation_action()
        url = action.get_request().get_uri()
        if kind == WebKit2.PolicyDecisionType.NEW_WINDOW_ACTION:
            # The iOS adapter allows an action without a target frame, so that WebKit asks
            # the UI delegate (create), where the window is decided.
            decision.use()
            return True
        webkit_type = action.get_navigation_type().value_nick
        answer = self.probe.ask({
            "event": "navigation", "url": url, "navigationType": WK_NAVIGATION_TYPE.get(webkit_type, -1),
            "isMainFrame": url not in self.subframe_urls, "currentPage": view.get_uri(),
        })
        record["decisions"].append({
            "kind": "navigation", "url": url, "webkitType": webkit_type, "webkitRedirect": action.is_redirect(),
            "initiator": answer["initiator"], "decision": answer["decision"], "reason": answer.get("reason"),
        })
        record["opened"] += answer.get("opened", [])
        if answer["decision"] == "allow":
            decision.use()
        else:
            decision.ignore()
        return True

    def _create(self, view, action, record):
        self._touch()
        url = action.get_request().get_uri()
        webkit_type = action.get_navigation_type().value_nick
        answer = self.probe.ask({
            "event": "new-window", "url": url, "navigationType": WK_NAVIGATION_TYPE.get(webkit_type, -1),
            "currentPage": view.get_uri(),
        })
        record["decisions"].append({
            "kind": "new-window", "url": url, "webkitType": webkit_type, "webkitRedirect": False,
            "initiator": answer["initiator"], "decision": answer["decision"], "reason": answer.get("reason"),
        })
        record["opened"] += answer.get("opened", [])
        if answer["decision"] == "load-in-same-view":
            # As WindowDecider.createWebView does: load it in the view that asked, no second view.
            GLib.idle_add(lambda: view.load_request(action.get_request()) and False)
        return None

    def _load_changed(self, _view, event, record):
        self._touch()
        record["events"].append(event.value_nick)
        if not self.forward_load_events:
            return
        if event == WebKit2.LoadEvent.STARTED:
            self.probe.ask({"event": "started"})
        elif event == WebKit2.LoadEvent.COMMITTED:
            self.probe.ask({"event": "ended"})

    def _load_failed(self, _view, _event, uri, error, record):
        self._touch()
        record["events"].append("failed %s: %s" % (uri, error.message))
        if self.forward_load_events:
            self.probe.ask({"event": "ended"})
        return False

    def _settle(self, deadline):
        """Runs the main loop until the view stopped loading and nothing happened for
        QUIET_SECONDS, or the deadline passes."""
        context = GLib.MainContext.default()
        while time.monotonic() < deadline:
            if not context.iteration(False):
                time.sleep(0.005)
            if time.monotonic() - self.last_event >= QUIET_SECONDS and not self.view.is_loading():
                return True
        return False

    def _run_script(self, source):
        state = {}

        def done(view, result, _data):
            try:
                state["value"] = view.evaluate_javascript_finish(result).to_string()
            except GLib.Error as error:
                state["value"] = "script failed: " + error.message

        self.view.evaluate_javascript(source, -1, None, None, None, done, None)
        deadline = time.monotonic() + 5
        while "value" not in state and time.monotonic() < deadline:
            GLib.MainContext.default().iteration(False) or time.sleep(0.002)
        return state.get("value", "the page never answered")

    def run(self, scenario):
        record = {"id": scenario["id"], "decisions": [], "opened": [], "events": []}
        self._new_view(record)
        self._touch()
        deadline = time.monotonic() + SCENARIO_TIMEOUT_SECONDS
        self.view.load_uri(scenario["start"])
        self._settle(deadline)
        record["startedAt"] = self.view.get_uri()
        record["script"] = self._run_script("__go(%s, %s)" % (json.dumps(scenario["do"]), json.dumps(scenario["target"])))
        self._touch()
        record["settled"] = self._settle(deadline)
        record["landed"] = self.view.get_uri()
        return record


def main():
    probe_path, compiled, plan_path, results_path = sys.argv[1:5]
    with open(plan_path, encoding="utf-8") as handle:
        plan = json.load(handle)
    port, _recording, stop = recording_proxy.start(PAGE)
    probe = Probe(probe_path, compiled)
    navigator = Navigator(port, probe, forward_load_events="--app-forgets-provisional-callbacks" not in sys.argv[5:])
    results = [navigator.run(scenario) for scenario in plan]
    probe.close()
    stop()
    with open(results_path, "w", encoding="utf-8") as handle:
        json.dump(results, handle, indent=1)


if __name__ == "__main__":
    main()
