#!/usr/bin/python3
"""Replays requests in a real headless WebKit (WebKitGTK 4.1) with content-blocker lists
installed, and records what reached the network.

usage: xvfb-run -a /usr/bin/python3 webkit_replay.py PLAN.json RESULTS.json

PLAN is [{"id", "list": LIST_TEXT, ["moreLists": [LIST_TEXT, ...],] "page": URL, "plan": {"requests": [...], "frames": [...]}}];
each request is {"type", "url", "method"?}, each frame {"url", "requests": [...]}. For each
group the web view gets that list alone, navigates to the page (a top-level navigation), then
the runner page (runner.html, served for every document) makes the requests the way a page
makes each resource type. RESULTS is, per group, the page load's outcome and every request
the recording proxy saw (scheme, host, port, path, method, cookie) — a request WebKit
blocked never reaches it. WebKit's console goes to this process's stdout (the setting
`enable-write-console-messages-to-stdout`), where the caller reads the content blocker's
"Content blocker prevented ..." lines.

Every request host gets a cookie before the run, so a load WebKit sends without its cookie
is one a `block-cookies` rule stripped.
"""
import json
import os
import sys
import tempfile
import time

import gi

gi.require_version("WebKit2", "4.1")
gi.require_version("Soup", "3.0")
gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk, Soup, WebKit2  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import recording_proxy  # noqa: E402

QUIET_SECONDS = 0.4
PAGE_TIMEOUT_SECONDS = 8


def hosts_of(groups):
    hosts = set()

    def add(url):
        rest = url.split("://", 1)[-1]
        authority = rest.split("/", 1)[0].split("?", 1)[0].split("#", 1)[0]
        host = authority.rsplit("@", 1)[-1]
        if not host.startswith("["):
            host = host.split(":", 1)[0]
        if host:
            # Cookie domains are ASCII: an internationalised host's cookie is its punycode.
            hosts.add(host.lower().encode("idna").decode("ascii") if not host.isascii() else host.lower())

    for group in groups:
        add(group["page"])
        for request in group["plan"].get("requests", []):
            add(request["url"])
        for frame in group["plan"].get("frames", []):
            add(frame["url"])
            for request in frame["requests"]:
                add(request["url"])
    return sorted(hosts)


class Replayer:
    def __init__(self, proxy_port):
        # Not ephemeral: WebKit writes no console messages for ephemeral sessions
        # (PageConsoleClient::addMessage), and the harness reads the content blocker's.
        folder = tempfile.mkdtemp(prefix="webpolicy-replay-data-")
        manager = WebKit2.WebsiteDataManager(base_data_directory=folder, base_cache_directory=folder)
        manager.set_network_proxy_settings(
            WebKit2.NetworkProxyMode.CUSTOM,
            WebKit2.NetworkProxySettings.new("http://127.0.0.1:%d" % proxy_port, []))
        manager.set_tls_errors_policy(WebKit2.TLSErrorsPolicy.IGNORE)
        self.cookies = manager.get_cookie_manager()
        self.cookies.set_accept_policy(WebKit2.CookieAcceptPolicy.ALWAYS)
        self.context = WebKit2.WebContext.new_with_website_data_manager(manager)
        self.context.set_cache_model(WebKit2.CacheModel.DOCUMENT_VIEWER)
        self.content = WebKit2.UserContentManager()
        self.store = WebKit2.UserContentFilterStore.new(tempfile.mkdtemp(prefix="webpolicy-replay-"))
        self.settings = WebKit2.Settings()
        self.settings.set_property("enable-write-console-messages-to-stdout", True)
        self.settings.set_property("javascript-can-open-windows-automatically", True)
        self.window = Gtk.OffscreenWindow()
        self.window.show_all()
        self.view = None
        self.popups = []
        self.filters = {}

    def _new_view(self):
        """A new view for each page, as a trace's first page is a new web view's first load
        (WebKit gives a navigation the frame URL of the document it replaces)."""
        if self.view is not None:
            self.window.remove(self.view)
            self.view.destroy()
        self.view = WebKit2.WebView(web_context=self.context, user_content_manager=self.content, settings=self.settings)
        self.view.connect("create", self._create_popup)
        self.window.add(self.view)
        self.view.show()

    def _create_popup(self, view, _action):
        popup = WebKit2.WebView(related_view=view)
        self.popups.append(popup)
        return popup

    @staticmethod
    def _wait(done_flag, timeout):
        """Runs the main loop until done_flag() holds or timeout seconds pass."""
        deadline = time.monotonic() + timeout
        context = GLib.MainContext.default()
        while not done_flag() and time.monotonic() < deadline:
            if not context.iteration(False):
                time.sleep(0.002)
        return done_flag()

    def add_cookies(self, hosts):
        pending = {"count": len(hosts)}

        def done(source, result, _data):
            source.add_cookie_finish(result)
            pending["count"] -= 1

        for host in hosts:
            self.cookies.add_cookie(Soup.Cookie.new("wpc", "1", host, "/", -1), None, done, None)
        self._wait(lambda: pending["count"] == 0, 30)

    def compile(self, text):
        if text in self.filters:
            return self.filters[text]
        state = {}

        def done(source, result, _data):
            try:
                state["filter"] = source.save_finish(result)
            except GLib.Error as error:
                state["error"] = error.message

        self.store.save("list-%d" % len(self.filters), GLib.Bytes.new(text.encode("utf-8")), None, done, None)
        # A real block list takes WebKit seconds to compile (EasyList + EasyPrivacy: about 6 s).
        self._wait(lambda: state, 300)
        self.filters[text] = state
        return state

    def replay(self, group, recording):
        if "listFile" in group:
            # A real list is named by its file, not carried in every group of the plan.
            with open(group["listFile"], encoding="utf-8") as handle:
                group["list"] = handle.read()
        # Each list its own filter, added in order, as an app adds several content-rule lists.
        filters = []
        for text in [group["list"]] + group.get("moreLists", []):
            compiled = self.compile(text)
            if "error" in compiled:
                return {"id": group["id"], "compileError": compiled["error"]}
            filters.append(compiled["filter"])
        self.content.remove_all_filters()
        for compiled_filter in filters:
            self.content.add_filter(compiled_filter)
        self._new_view()
        self._settle(recording)
        recording.take()

        page = {"finished": False, "error": None}

        def changed(_view, event):
            if event == WebKit2.LoadEvent.FINISHED:
                page["finished"] = True

        def failed(_view, _event, uri, error):
            page["error"] = error.message
            page["failedURI"] = uri
            return False

        handlers = [self.view.connect("load-changed", changed), self.view.connect("load-failed", failed)]
        self.view.load_uri(group["page"])
        self._wait(lambda: page["finished"], PAGE_TIMEOUT_SECONDS)
        for handler in handlers:
            self.view.disconnect(handler)
        page["uri"] = self.view.get_uri()

        outcomes = None
        plan = group["plan"]
        if page["finished"] and page["error"] is None and (plan.get("requests") or plan.get("frames")):
            outcomes = self._run_plan(plan)
        self._settle(recording)
        for popup in self.popups:
            popup.destroy()
        self.popups = []
        return {"id": group["id"], "page": page, "outcomes": outcomes, "seen": recording.take()}

    def _run_plan(self, plan):
        state = {}

        def done(view, result, _data):
            try:
                state["value"] = view.call_async_javascript_function_finish(result).to_string()
            except GLib.Error as error:
                state["value"] = json.dumps({"error": "script failed: " + error.message})

        arguments = GLib.Variant("a{sv}", {"plan": GLib.Variant("s", json.dumps(plan))})
        self.view.call_async_javascript_function(
            "return await window.__wpRun(JSON.parse(plan));", -1, arguments, None, None, None, done, None)
        self._wait(lambda: state, 20)
        return json.loads(state.get("value", '{"error": "the page never answered"}'))

    def _settle(self, recording):
        """Lets stragglers (beacons, popups) arrive: quiet for QUIET_SECONDS."""
        recording.last_seen = time.monotonic()
        while time.monotonic() - recording.last_seen < QUIET_SECONDS:
            GLib.MainContext.default().iteration(False) or time.sleep(0.005)


def main():
    plan_path, results_path = sys.argv[1], sys.argv[2]
    with open(plan_path, encoding="utf-8") as handle:
        groups = json.load(handle)
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "runner.html"), "rb") as handle:
        page = handle.read()
    port, recording, stop = recording_proxy.start(page)
    replayer = Replayer(port)
    replayer.add_cookies(hosts_of(groups))
    results = []
    for group in groups:
        print("=== webpolicy-group %s" % group["id"], flush=True)
        results.append(replayer.replay(group, recording))
    print("=== webpolicy-end", flush=True)
    stop()
    with open(results_path, "w", encoding="utf-8") as handle:
        json.dump(results, handle, indent=1)


if __name__ == "__main__":
    main()
