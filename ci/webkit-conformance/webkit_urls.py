#!/usr/bin/python3
"""Asks a real WebKit (WebKitGTK 4.1, headless) how it parses URLs: `new URL(input)` and, where
a case has a base, `new URL(input, base)`, in a blank page of a web view — the same
`WTF::URLParser` that hands content rules their URL.

usage: xvfb-run -a /usr/bin/python3 webkit_urls.py CASES.json ANSWERS.json

CASES is [{"input": TEXT, "base": TEXT or null}]; ANSWERS, in the same order,
[{"href": TEXT or null, "hrefWithBase": TEXT or null}] — null where WebKit throws (the parse
fails). Strings go in and come out as JSON, lone surrogates included.
"""
import json
import sys

import gi

gi.require_version("WebKit2", "4.1")
gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk, WebKit2  # noqa: E402

SCRIPT = """
const cases = JSON.parse(text);
return JSON.stringify(cases.map((c) => {
  let href = null, hrefWithBase = null;
  try { href = new URL(c.input).href; } catch (e) {}
  if (c.base === null || c.base === undefined) {
    hrefWithBase = href;
  } else {
    try { hrefWithBase = new URL(c.input, c.base).href; } catch (e) {}
  }
  return {href, hrefWithBase};
}));
"""


def main():
    cases_path, answers_path = sys.argv[1], sys.argv[2]
    with open(cases_path, encoding="utf-8", errors="surrogatepass") as handle:
        text = handle.read()
    window = Gtk.OffscreenWindow()
    view = WebKit2.WebView()
    window.add(view)
    window.show_all()
    state = {}

    def loaded(_view, event):
        if event != WebKit2.LoadEvent.FINISHED or "started" in state:
            return
        state["started"] = True
        arguments = GLib.Variant("a{sv}", {"text": GLib.Variant("s", text)})
        view.call_async_javascript_function(SCRIPT, -1, arguments, None, None, None, done, None)

    def done(source, result, _data):
        try:
            state["answers"] = source.call_async_javascript_function_finish(result).to_string()
        except GLib.Error as error:
            state["error"] = error.message

    view.connect("load-changed", loaded)
    view.load_html("<!doctype html><title>urls</title>", "about:blank")
    context = GLib.MainContext.default()
    while "answers" not in state and "error" not in state:
        context.iteration(True)
    if "error" in state:
        sys.exit("webkit_urls.py: the script failed: " + state["error"])
    with open(answers_path, "w", encoding="utf-8", errors="surrogatepass") as handle:
        handle.write(state["answers"])


if __name__ == "__main__":
    main()
