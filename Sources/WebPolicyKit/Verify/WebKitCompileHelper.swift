/// The Python helper that hands lists to WebKitGTK's compiler, run as `python3 -c script`. Held
/// in the binary rather than shipped beside it, so an installed `webpolicy` is one file.
public enum WebKitCompileHelper {
    public static let script = #"""
"""Compiles content-blocker lists with real WebKit (WebKitGTK's UserContentFilterStore, the
same WebCore/contentextensions compiler as Safari and WKWebView).

usage: /usr/bin/python3 -c "$SCRIPT" < requests.json > results.json

Reads [{"id": ..., "json": LIST_TEXT}, ...]; writes [{"id": ..., "ok": bool, "error": MESSAGE}],
the error being WebKit's own message ("Invalid or unsupported regular expression."). Needs
Debian's gir1.2-webkit2-4.1 and python3-gi (the system Python); no display.
"""
import json
import os
import shutil
import sys
import tempfile


def compile_all(requests, folder):
    import gi

    gi.require_version("WebKit2", "4.1")
    from gi.repository import GLib, WebKit2

    store = WebKit2.UserContentFilterStore.new(os.path.join(folder, "store"))
    loop = GLib.MainLoop()
    results = []

    def compile_next(index):
        if index == len(requests):
            loop.quit()
            return
        request = requests[index]

        def done(source, result, _data):
            try:
                source.save_finish(result)
                results.append({"id": request["id"], "ok": True, "error": None})
            except GLib.Error as error:
                results.append({"id": request["id"], "ok": False, "error": error.message})
            compile_next(index + 1)

        store.save("list-%d" % index, GLib.Bytes.new(request["json"].encode("utf-8")), None, done, None)

    GLib.idle_add(lambda: compile_next(0) and False)
    loop.run()
    return results


def main():
    requests = json.load(sys.stdin)
    # Everything WebKit writes goes in one folder that is removed at the end: the compiled
    # store, and the temporary file WebKit's ContentRuleListStore opens in the temporary
    # folder (FileSystem::openTemporaryFile, "ContentRuleList-XXXXXX") and leaves there when it
    # refuses a list. GLib reads TMPDIR once, so it is set before WebKit is loaded.
    folder = tempfile.mkdtemp(prefix="webpolicy-webkit-")
    os.environ["TMPDIR"] = folder
    try:
        results = compile_all(requests, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    json.dump(results, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
"""#
}
