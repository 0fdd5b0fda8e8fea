"""Seeded generator of WebKit content-blocker lists and of pages of requests aimed at them.

Each group is one rule list, one page (a top-level navigation), requests the page makes and,
sometimes, an iframe that makes requests of its own. Everything stays inside what WebKit
accepts (its regex subset: no `|`, no `\\d`, no `{n}`), and the URLs are built from the same
hosts and tokens as the rules, so most rules match something. The same seed gives the same
groups, so any disagreement replays with `--seed`.
"""
import json
import random
from urllib.parse import quote

# Hosts across registrable domains and public suffixes (co.uk), an IP literal and an
# internationalised name. Never webkit.org or opengl.org: open-source WebKit upgrades plain
# http to them on its own (makeSecureIfNecessary), outside any rule list.
HOSTS = [
    "example.com", "www.example.com", "cdn.example.com", "img.cdn.example.com",
    "tracker.net", "ads.tracker.net", "news.co.uk", "track.news.co.uk", "other.co.uk",
    "example.org", "shop.example.org", "notexample.com", "192.0.2.7", "b\u00fccher.example",
]
TOKENS = ["ads", "ad", "Ads", "track", "pixel", "img", "banner", "api", "v1", "x", "%7Euser", "\u00fcber", "a.b"]
EXTENSIONS = ["", "", ".js", ".png", ".css", ".gif", ".html"]
QUERIES = ["", "", "", "?id=7", "?ad=1&x=y", "?q=%41d"]
FRAGMENTS = ["", "", "", "", "#ads", "#track"]

# What the runner page can make (runner.html): `ping` is hyperlink auditing (`<a ping>`),
# `beacon` is navigator.sendBeacon, which WebKit types as `other`. Media needs GStreamer
# codecs and is left out; svg-document and csp-report have no page element that reliably
# produces them.
SUBRESOURCE_TYPES = ["image", "image", "script", "script", "style-sheet", "font", "fetch", "fetch", "websocket", "ping", "beacon", "child-document", "popup"]
RULE_TYPES = ["document", "top-document", "child-document", "image", "style-sheet", "script", "font",
              "raw", "fetch", "websocket", "ping", "popup", "other"]
ACTIONS = ["block"] * 8 + ["make-https"] * 4 + ["block-cookies"] * 4 + ["ignore-previous-rules"] * 3 + ["css-display-none"]


def escape(text):
    """A literal for a url-filter: WebKit's special characters escaped, non-ASCII
    percent-encoded as WebKit's URL parser writes it (url-filters must be ASCII)."""
    return "".join("\\" + c if c in ".?*+$^[](){}\\" else c for c in quote(text, safe="%/:.?&=~"))


def ascii_host(host):
    return host.encode("idna").decode("ascii") if any(ord(c) > 127 for c in host) else host


class Generator:
    def __init__(self, seed):
        self.random = random.Random(seed)

    def pick(self, items):
        return self.random.choice(items)

    def chance(self, probability):
        return self.random.random() < probability

    # URLs

    def host_as_written(self, host):
        """The host as a page might write it: sometimes with capitals."""
        if self.chance(0.15) and not host[0].isdigit():
            return "".join(c.upper() if self.chance(0.5) else c for c in host)
        return host

    def path(self, tokens=None):
        segments = [self.pick(tokens or TOKENS) for _ in range(self.random.randint(1, 3))]
        if self.chance(0.1):
            segments.insert(self.random.randint(0, len(segments) - 1), self.pick(["..", "."]))
        return "/" + "/".join(segments) + self.pick(EXTENSIONS)

    def url(self, scheme, host=None, token=None):
        host = host or self.pick(HOSTS)
        port = ""
        if self.chance(0.06):
            port = self.pick([":8080", ":80" if scheme in ("http", "ws") else ":443"])
        tokens = [token] * 4 + TOKENS if token else None
        # WebSocket URLs with a fragment are a SyntaxError in WebKit's WebSocket constructor.
        fragment = "" if scheme in ("ws", "wss") else self.pick(FRAGMENTS)
        return "%s://%s%s%s%s%s" % (scheme, self.host_as_written(host), port, self.path(tokens),
                                   self.pick(QUERIES), fragment)

    # Rules

    def url_filter(self):
        host = ascii_host(self.pick(HOSTS))
        token = self.pick(TOKENS)
        shapes = [
            lambda: ".*",
            lambda: "^https?://" + escape(host) + "/",
            lambda: "^[^:]+://+([^:/]+\\.)?" + escape(host) + "[:/]",
            lambda: "://" + escape(host),
            lambda: escape(token),
            lambda: escape(token) + "\\.js$",
            lambda: "/" + escape(token) + "/",
            lambda: "[?&]ad=",
            lambda: "ad[sx]?",
            lambda: "t(ra)+ck",
            lambda: "^http:",
            lambda: "^https:",
            lambda: "^wss?:",
            lambda: "\\.[pg][ni][gf]$",
            lambda: "^[^:]+://[^/]*" + escape(host.split(".")[0]) + "\\.",
            lambda: escape(token) + "$",
            lambda: "#",
        ]
        return self.pick(shapes)(), host, token

    def domain_list(self):
        domains = []
        for _ in range(self.random.randint(1, 3)):
            host = ascii_host(self.pick(HOSTS))
            domains.append(("*" + host) if self.chance(0.5) else host)
        return sorted(set(domains))

    def rule(self):
        url_filter, host, token = self.url_filter()
        trigger = {"url-filter": url_filter}
        if self.chance(0.15):
            trigger["url-filter-is-case-sensitive"] = True
        if self.chance(0.6):
            types = sorted({self.pick(RULE_TYPES) for _ in range(self.random.randint(1, 3))})
            trigger["resource-type"] = types
        if self.chance(0.25):
            trigger["load-type"] = [self.pick(["first-party", "third-party"])]
        if self.chance(0.15):
            trigger["load-context"] = [self.pick(["top-frame", "child-frame"])]
        if self.chance(0.1):
            trigger["request-method"] = self.pick(["get", "post"])
        condition = self.random.random()
        if condition < 0.12:
            trigger[self.pick(["if-domain", "unless-domain"])] = self.domain_list()
        elif condition < 0.22:
            trigger[self.pick(["if-top-url", "unless-top-url"])] = [self.url_filter()[0]]
            if self.chance(0.2):
                trigger["top-url-filter-is-case-sensitive"] = True
        elif condition < 0.3:
            trigger[self.pick(["if-frame-url", "unless-frame-url"])] = [self.url_filter()[0]]
            if self.chance(0.2):
                trigger["frame-url-filter-is-case-sensitive"] = True
        action = {"type": self.pick(ACTIONS)}
        if action["type"] == "css-display-none":
            action["selector"] = ".ad"
        return {"trigger": trigger, "action": action}, host, token

    # Groups

    def group(self, index):
        rules, aims = [], []
        for _ in range(self.random.randint(1, 8)):
            rule, host, token = self.rule()
            rules.append(rule)
            aims.append((host, token))

        def aimed_url(scheme):
            if self.chance(0.75):
                host, token = self.pick(aims)
                return self.url(scheme, host if self.chance(0.7) else None, token)
            return self.url(scheme)

        page = aimed_url(self.pick(["http", "https"]))
        requests = []
        for _ in range(self.random.randint(8, 14)):
            requests.append(self.request(aimed_url))
        frames = []
        if self.chance(0.35):
            frames.append({"url": aimed_url(self.pick(["http", "https"])),
                           "requests": [self.request(aimed_url, in_frame=True) for _ in range(self.random.randint(2, 5))]})
        group = {"id": "g%d" % index, "list": json.dumps(rules, indent=1), "page": page,
                 "plan": {"requests": requests, "frames": frames}}
        # A quarter of the groups load their rules as two or three lists, in order, as an app
        # adds its own list, a vendor's and a downloaded one: each list is evaluated on its own
        # (an ignore-previous-rules reaches only its own list).
        if len(rules) >= 2 and self.chance(0.25):
            count = min(len(rules), self.random.randint(2, 3))
            cuts = sorted(self.random.sample(range(1, len(rules)), count - 1))
            parts = [rules[start:end] for start, end in zip([0] + cuts, cuts + [len(rules)])]
            group["list"] = json.dumps(parts[0], indent=1)
            group["moreLists"] = [json.dumps(part, indent=1) for part in parts[1:]]
        return group

    def request(self, aimed_url, in_frame=False):
        kind = self.pick([t for t in SUBRESOURCE_TYPES if not (in_frame and t == "popup")])
        if kind == "websocket":
            return {"type": kind, "url": aimed_url(self.pick(["ws", "wss"]))}
        request = {"type": kind, "url": aimed_url(self.pick(["http", "https"]))}
        if kind == "fetch" and self.chance(0.3):
            request["method"] = "POST"
        if kind in ("ping", "beacon"):
            request["method"] = "POST"
        return request


def groups(seed, count):
    generator = Generator(seed)
    return [generator.group(index) for index in range(count)]
