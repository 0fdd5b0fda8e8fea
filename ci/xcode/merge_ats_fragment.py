#!/usr/bin/env python3
"""Merge the ATS fragment `webpolicy compile` writes (NAME.ats.plist) into an app's Info.plist.

iOS reads App Transport Security and LSApplicationQueriesSchemes from the app's own
Info.plist only: a fragment left in a resource bundle does nothing. Run this as the last Run
Script build phase of the app target (docs/runtime.md, "The ATS fragment"):

    /usr/bin/python3 "$SRCROOT/ci/xcode/merge_ats_fragment.py" \
        "$SRCROOT/Policy/app.ats.plist" "$TARGET_BUILD_DIR/$INFOPLIST_PATH"

What it does, so the result is the policy's and nothing is lost:
- NSExceptionDomains: the policy's entries are added to the app's; for a domain both name,
  the policy's entry wins (a warning says so).
- NSAllowsArbitraryLoads or NSAllowsArbitraryLoadsInWebContent set to true in the app is an
  error: either lets the web view load every plain-http host, so the policy's http-allowlist
  would mean nothing (Apple, "NSAllowsArbitraryLoadsInWebContent": it disables ATS for
  WKWebView loads). The exception is the key the policy's own fragment asks for: a
  runtime-hosts role with `http: anywhere` asks for NSAllowsArbitraryLoadsInWebContent, and
  lint has said so.
- The fragment's other NSAppTransportSecurity keys (NSAllowsLocalNetworking, for a role that
  may use plain http on the local network) are set as the fragment says.
- LSApplicationQueriesSchemes: the union, the app's schemes first, in order.
- WKAppBoundDomains: the policy's list replaces the app's — App-Bound Domains apply to every
  web view of the app, so one policy owns them; an app list that differs gets a warning.
  More than ten entries is an error: WebKit reads only the first ten.
- The plist keeps its format (XML or binary); running it twice changes nothing more.

Messages use Xcode's `path: error|warning|note: message` form. Exit 0 merged, 1 refused,
2 unusable input.
"""
import os
import plistlib
import sys

ARBITRARY = ("NSAllowsArbitraryLoads", "NSAllowsArbitraryLoadsInWebContent")


def load(path):
    with open(path, "rb") as handle:
        data = handle.read()
    return plistlib.loads(data), (plistlib.FMT_BINARY if data.startswith(b"bplist00") else plistlib.FMT_XML)


def merge(fragment, info, info_path):
    """Merges `fragment` into `info` in place; returns (errors, warnings)."""
    errors, warnings = [], []
    app_ats = info.get("NSAppTransportSecurity", {})
    policy_ats = fragment.get("NSAppTransportSecurity", {})
    for key in ARBITRARY:
        if app_ats.get(key) is True and policy_ats.get(key) is not True:
            errors.append(f"{info_path}: error: NSAppTransportSecurity.{key} is true: the web view may load any plain-http host, "
                          "and the policy's http-allowlist means nothing; remove it (the policy's exceptions are merged in)")
    if policy_ats:
        merged = dict(app_ats)
        domains = dict(app_ats.get("NSExceptionDomains", {}))
        for domain, settings in policy_ats.get("NSExceptionDomains", {}).items():
            if domain in domains and domains[domain] != settings:
                warnings.append(f"{info_path}: warning: NSExceptionDomains.{domain} differs from the policy's entry; the policy's wins")
            domains[domain] = settings
        for key, value in policy_ats.items():
            if key != "NSExceptionDomains":
                merged[key] = value
        if domains:
            merged["NSExceptionDomains"] = domains
        info["NSAppTransportSecurity"] = merged
    bound = fragment.get("WKAppBoundDomains")
    if bound is not None:
        if len(bound) > 10:
            errors.append(f"{info_path}: error: WKAppBoundDomains would list {len(bound)} entries; WebKit reads the first 10 and ignores the rest")
        existing = info.get("WKAppBoundDomains")
        if existing is not None and existing != bound:
            warnings.append(f"{info_path}: warning: WKAppBoundDomains {existing} is replaced by the policy's {bound}")
        info["WKAppBoundDomains"] = list(bound)
    schemes = fragment.get("LSApplicationQueriesSchemes", [])
    if schemes:
        existing = list(info.get("LSApplicationQueriesSchemes", []))
        info["LSApplicationQueriesSchemes"] = existing + [scheme for scheme in schemes if scheme not in existing]
    return errors, warnings


def main(argv):
    if len(argv) != 3:
        print("usage: merge_ats_fragment.py FRAGMENT.ats.plist Info.plist", file=sys.stderr)
        return 2
    fragment_path, info_path = argv[1], argv[2]
    try:
        fragment, _ = load(fragment_path)
        info, fmt = load(info_path)
    except (OSError, plistlib.InvalidFileException, ValueError) as error:
        print(f"{fragment_path}: error: cannot read the plists: {error}", file=sys.stderr)
        return 2
    errors, warnings = merge(fragment, info, info_path)
    for message in warnings + errors:
        print(message, file=sys.stderr)
    if errors:
        return 1
    data = plistlib.dumps(info, fmt=fmt, sort_keys=True)
    with open(info_path + ".tmp", "wb") as handle:
        handle.write(data)
    os.replace(info_path + ".tmp", info_path)
    domains = len(fragment.get("NSAppTransportSecurity", {}).get("NSExceptionDomains", {}))
    schemes = len(fragment.get("LSApplicationQueriesSchemes", []))
    print(f"{info_path}: note: merged {domains} ATS exception domain(s) and {schemes} queried scheme(s) from {fragment_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
