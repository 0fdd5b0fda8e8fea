"""ada (the C++ URL parser behind Node.js, through the `can-ada` package on PyPI) on the URLs of
a webpolicy trace: the same-run baseline for webpolicy's URL canonicalisation
(docs/benchmarks.md).

usage: python ada_urls.py URLS.txt

Reads one URL a line into memory, then times `list(map(can_ada.parse, urls))` — every URL
parsed and canonicalised, in one call from Python so that the interpreter's loop is C's — and
`list(map(len, urls))`, the same loop over a C function that does nothing to speak of: its time
is Python's per-call cost, which the figure subtracts. What is not subtracted is the binding's
own work around ada (the string handed to C++, a Python object made of the result), so
`can_ada.can_parse` is timed too: ada's parse without its result written out, a bound below
ada's canonicalisation. Best of five each. Prints one JSON object: the URL count, the times,
and ada's time per URL after the subtraction, both ways.
"""
import json
import sys
import time

import can_ada


def best(function, urls, runs=5):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        function(urls)
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    with open(sys.argv[1], encoding="utf-8") as handle:
        urls = handle.read().split("\n")
    urls = [url for url in urls if url]
    parse = best(lambda items: list(map(can_ada.parse, items)), urls)
    validate = best(lambda items: list(map(can_ada.can_parse, items)), urls)
    overhead = best(lambda items: list(map(len, items)), urls)
    print(json.dumps({"urls": len(urls), "parse_seconds": parse, "can_parse_seconds": validate, "overhead_seconds": overhead,
                      "per_url_seconds": max(parse - overhead, 0) / len(urls),
                      "can_parse_per_url_seconds": max(validate - overhead, 0) / len(urls)}))


if __name__ == "__main__":
    main()
