"""Brave's ad-block engine (the `adblock` package on PyPI, Brave's adblock-rust through its
Python binding) on the requests of a webpolicy trace: the peer the simulate benchmark
measures webpolicy against, in the same run (docs/benchmarks.md).

usage: python brave_adblock.py FILTERS.abp.txt TRACE
       python brave_adblock.py --serialize FILTERS.abp.txt ENGINE.dat
       python brave_adblock.py --startup ENGINE.dat

The first form checks a trace. --serialize builds the engine and writes Brave's precompiled
form of it (what its browser ships and loads); --startup is an app's launch on Brave's engine:
deserialize that file and check one request, the baseline of webpolicy's runtime start-up.

Reads Adblock Plus filters, then the trace's request lines (`page URL` sets the page the
following requests come from; `TYPE URL` is a request), and prints one JSON object: the time
to build the engine, to read the requests, and to check them all, with the number blocked.
The requests are read into memory before the clock starts for the checks, so the check figure
is the engine's inner loop plus the binding's per-call cost, nothing else.
"""
import json
import sys
import time

import adblock

# Trace types (WebKit's resource types) in the words adblock-rust's request types use.
TYPES = {
    "page": "document", "document": "document", "top-document": "document", "child-document": "subdocument",
    "image": "image", "style-sheet": "stylesheet", "script": "script", "font": "font", "media": "media",
    "fetch": "xmlhttprequest", "websocket": "websocket", "ping": "ping", "popup": "popup",
    "svg-document": "other", "csp-report": "csp_report", "other": "other",
}


def serialize(filters_path, out_path):
    with open(filters_path, encoding="utf-8") as handle:
        filters = handle.read()
    filter_set = adblock.FilterSet()
    filter_set.add_filter_list(filters)
    adblock.Engine(filter_set=filter_set).serialize_to_file(out_path)


def startup(engine_path):
    engine = adblock.Engine(adblock.FilterSet())
    engine.deserialize_from_file(engine_path)
    result = engine.check_network_urls("https://ads.example.com/banner.js", "https://news.example.org/", "script")
    print("block" if result.matched else "allow")


def main():
    if sys.argv[1] == "--serialize":
        serialize(sys.argv[2], sys.argv[3])
        return
    if sys.argv[1] == "--startup":
        startup(sys.argv[2])
        return
    filters_path, trace_path = sys.argv[1], sys.argv[2]
    started = time.perf_counter()
    with open(filters_path, encoding="utf-8") as handle:
        filters = handle.read()
    filter_set = adblock.FilterSet()
    filter_set.add_filter_list(filters)
    engine = adblock.Engine(filter_set=filter_set)
    built = time.perf_counter()

    requests = []
    page = None
    with open(trace_path, encoding="utf-8") as handle:
        for line in handle:
            fields = line.split()
            if not fields or fields[0].startswith("#") or fields[0].startswith("policy:"):
                continue
            kind, url = (fields[0], fields[1]) if len(fields) > 1 and "://" not in fields[0] else ("other", fields[0])
            if kind == "page":
                page = url
            requests.append((url, page or url, TYPES.get(kind, "other")))
    read = time.perf_counter()

    blocked = 0
    check = engine.check_network_urls
    for url, source, request_type in requests:
        if check(url, source, request_type).matched:
            blocked += 1
    checked = time.perf_counter()
    json.dump({
        "engine": "adblock %s" % getattr(adblock, "__version__", "?"),
        "build_seconds": built - started,
        "read_seconds": read - built,
        "check_seconds": checked - read,
        "requests": len(requests),
        "blocked": blocked,
    }, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
