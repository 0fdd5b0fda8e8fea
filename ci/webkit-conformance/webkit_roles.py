#!/usr/bin/python3
"""Plays a self-hosted app's story in a real headless WebKit (WebKitGTK 4.1): the user picks
a server, the app binds the policy's role to it, loads it, the page calls the app's bridges,
the user switches servers — and records what WebKit and the servers saw.

usage: xvfb-run -a /usr/bin/python3 webkit_roles.py PROBE COMPILED_DIR PLAN.json RESULTS.json

PROBE is webpolicy-app-probe over the policy `webpolicy compile` wrote to COMPILED_DIR: the
app's navigation decider, its message gate, and `policy.bind` (the app's settings screen).
PLAN is {"handlers": [NAME], "steps": [STEP], "keepsFirstBinding": bool}, each step one of
  {"do": "bind", "role", "url"}       the app binds the role (the user chose a server);
  {"do": "load", "url"}               the app loads the URL in its web view (`load(_:)`);
  {"do": "link", "url"}               the shown page's link, which the user taps;
  {"do": "post", "handler", "frame"}  the shown page posts to the handler from its main frame,
                                      or from an iframe of its own server (`frame: child`,
                                      the page `/local/card.html` of the shown origin).
A step's URL may hold `{local}`: the port of the server this script runs on 127.0.0.1 (a
second recording server, asked directly, not through the proxy — the home server on the
local network). `localhost` and `127.0.0.1` go straight to it; every other host goes through
the recording proxy, as in the other lanes.

RESULTS is {"local": PORT, "steps": [...]}, per step what happened: the probe's answer to a
binding; for a load or a link, the runtime's decisions, the page shown after it, what was
handed to the system and every request a server saw (the proxy's and the local server's);
for a post, whether WebKit delivered it and whether the app's handler heard it. The app's
handlers are registered through its gate (`register`) in a user content manager, a replying
bridge with `register_script_message_handler_with_reply`, as `WKScriptMessageHandlerWithReply`
is on iOS. WebKitGTK's message signal carries no origin, so the page puts `location.origin`
in the body (the harness made the page; that is the truth of the step). `keepsFirstBinding`
is the app that binds once and never again: each later binding is not asked of the policy.
"""
import json
import os
import sys
import time

import gi

gi.require_version("WebKit2", "4.1")
gi.require_version("Gtk", "3.0")
from gi.repository import JavaScriptCore, WebKit2  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import recording_proxy  # noqa: E402
from webkit_navigation import Navigator, Probe  # noqa: E402

STEP_TIMEOUT_SECONDS = 8
CHILD_PAGE = "/local/card.html"

# Every document: the harness follows a link (`__go`), posts from the main frame (`__post`)
# or adds an iframe (`__frame`) whose document posts what its query names.
PAGE = b"""<!doctype html><meta charset="utf-8"><title>webpolicy roles</title><body><script>
"use strict";
const frame = window === window.top ? "main" : "child";
window.__post = (name) => {
  try {
    window.webkit.messageHandlers[name].postMessage({handler: name, frame: frame, origin: location.origin});
    return "posted";
  } catch (error) {
    return "no handler " + name;
  }
};
window.__go = (how, url) => {
  const link = document.createElement("a");
  link.href = url;
  link.textContent = "go";
  document.body.appendChild(link);
  link.click();
  return "started";
};
window.__frame = (url) => {
  const child = document.createElement("iframe");
  child.src = url;
  document.body.appendChild(child);
  return "added";
};
for (const name of (new URLSearchParams(location.search).get("post") || "").split(",").filter(Boolean)) {
  window.__post(name);
}
</script>"""


class RolesApp(Navigator):
    """One app, one web view for the whole story: bindings and the shown page carry over."""

    def __init__(self, proxy_port, probe, handlers, recordings, keeps_first_binding=False):
        super().__init__(proxy_port, probe, direct_hosts=["localhost", "127.0.0.1"])
        self.recordings = recordings
        self.keeps_first_binding = keeps_first_binding
        self.has_bound = False
        self.content = WebKit2.UserContentManager()
        self.delivered = []
        self.errors = []
        for name in handlers:
            answer = probe.ask({"event": "register", "handler": name})
            if "error" in answer:
                self.errors.append(answer["error"])
                continue
            for world in answer["worlds"]:
                world_name = None if world == "page" else world
                if answer["reply"]:
                    self.content.register_script_message_handler_with_reply(name, world_name)
                    self.content.connect("script-message-with-reply-received::" + name,
                                         lambda _content, value, reply, name=name: self._deliver(name, value, reply))
                elif world_name is None:
                    self.content.register_script_message_handler(name)
                    self.content.connect("script-message-received::" + name, lambda _content, result, name=name: self._deliver(name, result.get_js_value()))
                else:
                    self.content.register_script_message_handler_in_world(name, world_name)
                    self.content.connect("script-message-received::" + name, lambda _content, result, name=name: self._deliver(name, result.get_js_value()))
        self.record = {"decisions": [], "opened": [], "events": []}
        self._new_view(self.record)

    def _make_view(self):
        return WebKit2.WebView(web_context=self.context, settings=self.settings, user_content_manager=self.content)

    def _deliver(self, name, value, reply=None):
        self._touch()
        body = json.loads(value.to_json(0) or "null") or {}
        origin = body.get("origin", "")
        scheme, _, authority = origin.partition("://")
        host, _, port = authority.rpartition(":") if ":" in authority.rsplit("]", 1)[-1] else (authority, "", "")
        answer = self.probe.ask({
            "event": "message", "handler": name, "world": "page", "isMainFrame": body.get("frame") == "main",
            "origin": {"scheme": scheme, "host": host.strip("[]"), "port": int(port) if port else 0}, "body": body,
        })
        self.delivered.append({"handler": name, "frame": body.get("frame"), "origin": origin,
                               "heard": bool(answer.get("heard")), "reason": answer.get("reason")})
        if reply is not None:
            # The app's reply handler answered through the gate; the page's promise settles.
            if answer.get("heard"):
                reply.return_value(JavaScriptCore.Value.new_string(value.get_context(), "ok"))
            else:
                reply.return_error_message(answer.get("reason") or "refused")
        return True

    def _requests(self):
        seen = []
        for recording in self.recordings:
            seen += ["%s://%s:%d%s" % (r["scheme"], r["host"], r["port"], r["path"]) for r in recording.take()]
        return sorted(seen)

    def _settled(self):
        return self._settle(time.monotonic() + STEP_TIMEOUT_SECONDS)

    def play(self, step):
        self.record["decisions"], self.record["opened"] = [], []
        self.delivered = []
        self._requests()  # what came before this step is not its own
        done = {"do": step["do"], "shownBefore": self.view.get_uri()}
        if step["do"] == "bind":
            if self.keeps_first_binding and self.has_bound:
                # The app forgot to rebind when the user switched servers: it thinks it did.
                done.update(bound=True, reason="the app did not ask the policy")
                return done
            answer = self.probe.ask({"event": "bind", "role": step["role"], "url": step["url"]})
            self.has_bound = self.has_bound or answer["bound"]
            done.update(bound=answer["bound"], reason=answer.get("reason"))
            return done
        self._touch()
        if step["do"] == "load":
            self.view.load_uri(step["url"])
        elif step["do"] == "link":
            done["script"] = self._run_script("__go('link', %s)" % json.dumps(step["url"]))
        elif step["frame"] == "main":
            done["script"] = self._run_script("__post(%s)" % json.dumps(step["handler"]))
        else:
            shown = self.view.get_uri().split("://", 1)
            child = "%s://%s%s?post=%s" % (shown[0], shown[1].split("/", 1)[0], CHILD_PAGE, step["handler"])
            self.subframe_urls.add(child)
            done["script"] = self._run_script("__frame(%s)" % json.dumps(child))
        done["settled"] = self._settled()
        done.update(shown=self.view.get_uri(), decisions=list(self.record["decisions"]), opened=list(self.record["opened"]),
                    requests=self._requests(), delivered=list(self.delivered))
        return done


def main():
    probe_path, compiled, plan_path, results_path = sys.argv[1:5]
    with open(plan_path, encoding="utf-8") as handle:
        plan = json.load(handle)
    proxy_port, proxy_recording, stop_proxy = recording_proxy.start(PAGE)
    local_port, local_recording, stop_local = recording_proxy.start(PAGE)
    probe = Probe(probe_path, compiled)
    app = RolesApp(proxy_port, probe, plan["handlers"], [proxy_recording, local_recording], plan.get("keepsFirstBinding", False))
    steps = []
    for step in plan["steps"]:
        step = {key: value.replace("{local}", str(local_port)) if isinstance(value, str) else value for key, value in step.items()}
        steps.append(app.play(step))
    probe.close()
    stop_proxy()
    stop_local()
    with open(results_path, "w", encoding="utf-8") as handle:
        json.dump({"local": local_port, "errors": app.errors, "steps": steps}, handle, indent=1)


if __name__ == "__main__":
    main()
