#!/usr/bin/env python3
"""Tests of merge_ats_fragment.py on real fragments: WEBPOLICY=path/to/webpolicy compiles the
example policies, and the merged Info.plists are read back with plistlib."""
import os
import plistlib
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SCRIPT = os.path.join(HERE, "merge_ats_fragment.py")
WEBPOLICY = os.environ.get("WEBPOLICY", os.path.join(ROOT, ".build", "debug", "webpolicy"))

APP_INFO = {
    "CFBundleIdentifier": "com.example.shop",
    "LSApplicationQueriesSchemes": ["tel", "mailto"],
    "NSAppTransportSecurity": {
        "NSExceptionDomains": {"intranet.example.org": {"NSExceptionAllowsInsecureHTTPLoads": True, "NSIncludesSubdomains": True}},
    },
}


class MergeATSFragment(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="webpolicy-ats-")
        compiled = subprocess.run([WEBPOLICY, "compile", os.path.join(ROOT, "policies", "sdk-allowlist.yaml"), "--output", self.folder],
                                  capture_output=True, text=True)
        self.assertEqual(compiled.returncode, 0, compiled.stderr)
        self.fragment = os.path.join(self.folder, "sdk-allowlist.ats.plist")

    def tearDown(self):
        shutil.rmtree(self.folder)

    def info(self, contents, fmt=plistlib.FMT_XML):
        path = os.path.join(self.folder, "Info.plist")
        with open(path, "wb") as handle:
            plistlib.dump(contents, handle, fmt=fmt)
        return path

    def run_script(self, info):
        return subprocess.run([sys.executable, SCRIPT, self.fragment, info], capture_output=True, text=True)

    def test_the_policy_exceptions_and_schemes_join_the_apps(self):
        info = self.info(APP_INFO)
        result = self.run_script(info)
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(info, "rb") as handle:
            merged = plistlib.load(handle)
        domains = merged["NSAppTransportSecurity"]["NSExceptionDomains"]
        self.assertEqual(domains["www.example.com"], {"NSExceptionAllowsInsecureHTTPLoads": True})
        self.assertEqual(domains["intranet.example.org"], APP_INFO["NSAppTransportSecurity"]["NSExceptionDomains"]["intranet.example.org"])
        self.assertEqual(merged["LSApplicationQueriesSchemes"], ["tel", "mailto"])
        self.assertEqual(merged["CFBundleIdentifier"], "com.example.shop")
        self.assertIn("note: merged 1 ATS exception domain(s)", result.stdout)

    def test_a_second_run_changes_nothing(self):
        info = self.info(APP_INFO)
        self.assertEqual(self.run_script(info).returncode, 0)
        with open(info, "rb") as handle:
            once = handle.read()
        self.assertEqual(self.run_script(info).returncode, 0)
        with open(info, "rb") as handle:
            self.assertEqual(handle.read(), once)

    def test_a_binary_plist_stays_binary(self):
        info = self.info({"CFBundleIdentifier": "com.example.shop"}, fmt=plistlib.FMT_BINARY)
        self.assertEqual(self.run_script(info).returncode, 0)
        with open(info, "rb") as handle:
            data = handle.read()
        self.assertTrue(data.startswith(b"bplist00"))
        self.assertEqual(plistlib.loads(data)["LSApplicationQueriesSchemes"], ["mailto"])

    def test_arbitrary_loads_defeat_the_allowlist_and_are_refused(self):
        for key in ("NSAllowsArbitraryLoads", "NSAllowsArbitraryLoadsInWebContent"):
            info = self.info({"NSAppTransportSecurity": {key: True}})
            with open(info, "rb") as handle:
                before = handle.read()
            result = self.run_script(info)
            self.assertEqual(result.returncode, 1, key)
            self.assertIn(f"error: NSAppTransportSecurity.{key} is true", result.stderr)
            with open(info, "rb") as handle:
                self.assertEqual(handle.read(), before, "a refused merge writes nothing")

    def test_a_conflicting_entry_takes_the_policys_and_says_so(self):
        info = self.info({"NSAppTransportSecurity": {"NSExceptionDomains": {"www.example.com": {"NSExceptionMinimumTLSVersion": "TLSv1.2"}}}})
        result = self.run_script(info)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("warning: NSExceptionDomains.www.example.com differs", result.stderr)
        with open(info, "rb") as handle:
            self.assertEqual(plistlib.load(handle)["NSAppTransportSecurity"]["NSExceptionDomains"]["www.example.com"],
                             {"NSExceptionAllowsInsecureHTTPLoads": True})

    def test_app_bound_domains_come_from_the_policy(self):
        fragment = os.path.join(self.folder, "bound.ats.plist")
        with open(fragment, "wb") as handle:
            plistlib.dump({"WKAppBoundDomains": ["shop.example.com", "shop-bundle:"]}, handle)
        info = self.info({"WKAppBoundDomains": ["old.example.com"]})
        result = subprocess.run([sys.executable, SCRIPT, fragment, info], capture_output=True, text=True)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("warning: WKAppBoundDomains ['old.example.com'] is replaced", result.stderr)
        with open(info, "rb") as handle:
            self.assertEqual(plistlib.load(handle)["WKAppBoundDomains"], ["shop.example.com", "shop-bundle:"])
        with open(fragment, "wb") as handle:
            plistlib.dump({"WKAppBoundDomains": [f"d{n}.example.com" for n in range(11)]}, handle)
        result = subprocess.run([sys.executable, SCRIPT, fragment, self.info({})], capture_output=True, text=True)
        self.assertEqual(result.returncode, 1)
        self.assertIn("WebKit reads the first 10", result.stderr)

    def test_a_role_on_the_local_network_asks_for_local_networking_and_merges_twice_alike(self):
        compiled = subprocess.run([WEBPOLICY, "compile", os.path.join(ROOT, "policies", "self-hosted-dashboard.yaml"), "--output", self.folder],
                                  capture_output=True, text=True)
        self.assertEqual(compiled.returncode, 0, compiled.stderr)
        fragment = os.path.join(self.folder, "self-hosted-dashboard.ats.plist")
        info = self.info(APP_INFO)
        result = subprocess.run([sys.executable, SCRIPT, fragment, info], capture_output=True, text=True)
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(info, "rb") as handle:
            once = handle.read()
        ats = plistlib.loads(once)["NSAppTransportSecurity"]
        self.assertIs(ats["NSAllowsLocalNetworking"], True)
        self.assertNotIn("NSAllowsArbitraryLoadsInWebContent", ats)
        self.assertIn("intranet.example.org", ats["NSExceptionDomains"])
        result = subprocess.run([sys.executable, SCRIPT, fragment, info], capture_output=True, text=True)
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(info, "rb") as handle:
            self.assertEqual(handle.read(), once)

    def test_the_key_the_policy_asks_for_is_not_refused(self):
        fragment = os.path.join(self.folder, "anywhere.ats.plist")
        with open(fragment, "wb") as handle:
            plistlib.dump({"NSAppTransportSecurity": {"NSAllowsArbitraryLoadsInWebContent": True}}, handle)
        info = self.info({"NSAppTransportSecurity": {"NSAllowsArbitraryLoadsInWebContent": True}})
        result = subprocess.run([sys.executable, SCRIPT, fragment, info], capture_output=True, text=True)
        self.assertEqual(result.returncode, 0, result.stderr)
        info = self.info({"NSAppTransportSecurity": {"NSAllowsArbitraryLoads": True}})
        result = subprocess.run([sys.executable, SCRIPT, fragment, info], capture_output=True, text=True)
        self.assertEqual(result.returncode, 1)
        self.assertIn("NSAllowsArbitraryLoads is true", result.stderr)

    def test_unreadable_input_is_exit_2(self):
        result = subprocess.run([sys.executable, SCRIPT, self.fragment, os.path.join(self.folder, "missing.plist")], capture_output=True, text=True)
        self.assertEqual(result.returncode, 2)
        self.assertIn("error: cannot read", result.stderr)


if __name__ == "__main__":
    unittest.main()
