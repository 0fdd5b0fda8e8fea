#!/usr/bin/env python3
"""Checks what `webpolicy compile` writes, with real validators.

usage: compile_outputs.py WEBPOLICY SCHEMAS_DIR ROOT [ROOT ...]

For every policy under each ROOT (*.yaml / *.yml; folders named `support` and `err`, and hidden
entries, skipped) that lints without errors:
- compile it twice, into two fresh folders: the folders must hold the same files, byte for byte;
- every NAME.content-rules*.json must validate against content-blocker.schema.json;
- NAME.manifest.json must validate against runtime-manifest.schema.json, name every list
  written, and its rule counts must match the lists;
- NAME.ats.plist must parse with plistlib and hold only NSAppTransportSecurity (with
  NSExceptionDomains of NSExceptionAllowsInsecureHTTPLoads / NSIncludesSubdomains) and
  LSApplicationQueriesSchemes.
The schemas must also refuse a set of broken documents, so a schema that accepts anything fails.
Exits 1 listing every failure.
"""

import glob
import hashlib
import json
import os
import plistlib
import subprocess
import sys
import tempfile

import jsonschema


def policies(roots):
    for root in roots:
        if os.path.isfile(root):
            yield root
            continue
        for folder, folders, files in os.walk(root):
            folders[:] = sorted(f for f in folders if not f.startswith(".") and f not in ("support", "err"))
            for name in sorted(files):
                if name.endswith((".yaml", ".yml")) and not name.startswith("."):
                    yield os.path.join(folder, name)


def compile_into(webpolicy, policy):
    folder = tempfile.mkdtemp(prefix="webpolicy-compile-")
    result = subprocess.run([webpolicy, "compile", "--no-config", policy, "--output", folder], capture_output=True, text=True, check=False)
    return result, folder


def read_all(folder):
    files = {}
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name), "rb") as handle:
            files[name] = handle.read()
    return files


def check_plist(data, failures, where):
    try:
        plist = plistlib.loads(data)
    except Exception as error:  # plistlib raises several types
        failures.append(f"{where}: does not parse as a property list: {error}")
        return
    allowed = {"NSAppTransportSecurity", "LSApplicationQueriesSchemes", "WKAppBoundDomains"}
    if not isinstance(plist, dict) or set(plist) - allowed:
        failures.append(f"{where}: unexpected top-level keys {sorted(set(plist) - allowed) if isinstance(plist, dict) else plist!r}")
        return
    ats = plist.get("NSAppTransportSecurity", {})
    for domain, exception in ats.get("NSExceptionDomains", {}).items():
        if set(exception) - {"NSExceptionAllowsInsecureHTTPLoads", "NSIncludesSubdomains"} or not all(v is True for v in exception.values()):
            failures.append(f"{where}: the exception for {domain} is {exception!r}")
    schemes = plist.get("LSApplicationQueriesSchemes", [])
    if not all(isinstance(s, str) and s == s.lower() for s in schemes):
        failures.append(f"{where}: LSApplicationQueriesSchemes is {schemes!r}")
    bound = plist.get("WKAppBoundDomains", [])
    if not isinstance(bound, list) or not all(isinstance(d, str) and d for d in bound):
        failures.append(f"{where}: WKAppBoundDomains is {bound!r}")


def check_policy(webpolicy, policy, list_schema, manifest_schema, failures):
    first, one = compile_into(webpolicy, policy)
    if first.returncode == 1:
        return False  # lint errors: nothing may be written
    if first.returncode != 0:
        failures.append(f"{policy}: compile exited {first.returncode}: {first.stderr.strip()}")
        return False
    if os.listdir(one) and first.returncode == 1:
        failures.append(f"{policy}: compile failed but wrote {os.listdir(one)}")
    second, two = compile_into(webpolicy, policy)
    files, again = read_all(one), read_all(two)
    if files != again:
        failures.append(f"{policy}: two compiles differ: {sorted(n for n in set(files) | set(again) if files.get(n) != again.get(n))}")
    lists = {name: json.loads(data) for name, data in files.items() if ".content-rules" in name and name.endswith(".json")}
    for name, rules in lists.items():
        for error in jsonschema.Draft202012Validator(list_schema).iter_errors(rules):
            failures.append(f"{policy}: {name}{''.join(f'[{p}]' for p in error.absolute_path)}: {error.message}")
    manifests = [name for name in files if name.endswith(".manifest.json")]
    plists = [name for name in files if name.endswith(".ats.plist")]
    if len(manifests) != 1 or len(plists) != 1:
        failures.append(f"{policy}: expected one manifest and one plist, got {sorted(files)}")
        return True
    manifest = json.loads(files[manifests[0]])
    for error in jsonschema.Draft202012Validator(manifest_schema).iter_errors(manifest):
        failures.append(f"{policy}: {manifests[0]}{''.join(f'[{p}]' for p in error.absolute_path)}: {error.message}")
    for entry in manifest.get("contentRuleLists", []):
        digest = hashlib.sha256(files.get(entry.get("file"), b"")).hexdigest()
        if entry.get("sha256") != digest or not entry.get("identifier", "").endswith("-" + digest[:16]):
            failures.append(f"{policy}: {entry.get('file')} has SHA-256 {digest}, the manifest says {entry.get('sha256')} (identifier {entry.get('identifier')})")
    named = {entry["file"]: entry["ruleCount"] for entry in manifest.get("contentRuleLists", [])}
    actual = {name: len(rules) for name, rules in lists.items()}
    if named != actual:
        failures.append(f"{policy}: the manifest lists {named}, compile wrote {actual}")
    check_plist(files[plists[0]], failures, f"{policy}: {plists[0]}")
    return True


def check_schemas_discriminate(list_schema, manifest_schema, failures):
    rule = {"trigger": {"url-filter": "a"}, "action": {"type": "block"}}
    broken_lists = [
        [],
        [{"trigger": {}, "action": {"type": "block"}}],
        [{"trigger": {"url-filter": "a", "unknown": 1}, "action": {"type": "block"}}],
        [{"trigger": {"url-filter": "a"}, "action": {"type": "blok"}}],
        [{"trigger": {"url-filter": "a"}, "action": {"type": "css-display-none"}}],
        [{"trigger": {"url-filter": "a", "if-domain": ["a"], "unless-domain": ["b"]}, "action": {"type": "block"}}],
        [{"trigger": {"url-filter": "a", "request-method": "POST"}, "action": {"type": "block"}}],
        [{"trigger": {"url-filter": "a"}, "action": {"type": "modify-headers"}}],
        [{"trigger": {"url-filter": "a"}, "action": {"type": "redirect", "redirect": {"extension-path": "no-slash"}}}],
    ]
    validator = jsonschema.Draft202012Validator(list_schema)
    if not validator.is_valid([rule]):
        failures.append("content-blocker.schema.json refuses the simplest valid list")
    for broken in broken_lists:
        if validator.is_valid(broken):
            failures.append(f"content-blocker.schema.json accepts the broken list {json.dumps(broken)}")
    manifest_validator = jsonschema.Draft202012Validator(manifest_schema)
    for broken in [{}, {"webpolicyManifest": 2}, {"webpolicyManifest": 1, "policy": {"name": "x"}}]:
        if manifest_validator.is_valid(broken):
            failures.append(f"runtime-manifest.schema.json accepts {json.dumps(broken)}")


def main(arguments):
    if len(arguments) < 4:
        sys.exit(__doc__)
    webpolicy, schemas, roots = os.path.abspath(arguments[1]), arguments[2], arguments[3:]
    with open(os.path.join(schemas, "content-blocker.schema.json"), encoding="utf-8") as handle:
        list_schema = json.load(handle)
    with open(os.path.join(schemas, "runtime-manifest.schema.json"), encoding="utf-8") as handle:
        manifest_schema = json.load(handle)
    jsonschema.Draft202012Validator.check_schema(list_schema)
    jsonschema.Draft202012Validator.check_schema(manifest_schema)
    failures = []
    check_schemas_discriminate(list_schema, manifest_schema, failures)
    compiled = [policy for policy in policies(roots) if check_policy(webpolicy, policy, list_schema, manifest_schema, failures)]
    if failures:
        print("\n".join(failures))
        sys.exit(1)
    print(f"compile outputs valid: {len(compiled)} policies compiled twice byte-identically; lists, manifests and plists validate")


if __name__ == "__main__":
    main(sys.argv)
