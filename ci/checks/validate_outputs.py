#!/usr/bin/env python3
"""Validates webpolicy's machine-readable outputs with real validators.

usage: validate_outputs.py WEBPOLICY SARIF_SCHEMA POLICY_SCHEMA FIXTURES POLICIES

- SARIF from `lint --format sarif` over the error fixtures, from `audit --format sarif` over the
  fixture apps, and the golden SARIF file, against
  the official SARIF 2.1.0 schema;
- every policy in POLICIES against schemas/webpolicy.schema.json (read as webpolicy reads
  YAML), and each must start with a `# yaml-language-server: $schema=` line naming that schema;
- JUnit XML from `lint --format junit` parses, and its counts match the JSON report;
- `lint --format github` prints one well-formed workflow command per diagnostic.
"""

import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

import jsonschema

import strict_yaml


def lint(webpolicy, cwd, *arguments):
    result = subprocess.run([webpolicy, "lint", "--no-config", *arguments], cwd=cwd, capture_output=True, text=True, check=False)
    if result.returncode not in (0, 1):
        sys.exit(f"webpolicy lint {' '.join(arguments)} exited {result.returncode}: {result.stderr}")
    return result.stdout


def main(arguments):
    if len(arguments) != 6:
        sys.exit(__doc__)
    webpolicy, sarif_schema_path, policy_schema_path, fixtures, policies = arguments[1:]
    webpolicy = os.path.abspath(webpolicy)
    failures = []

    with open(sarif_schema_path, encoding="utf-8") as handle:
        sarif_schema = json.load(handle)
    sarif_validator = jsonschema.validators.validator_for(sarif_schema)(sarif_schema)
    golden = os.path.join("Tests", "Fixtures", "reporters", "CannedSarifReporterOutput.txt")
    sarif_documents = {
        "lint --format sarif err/": json.loads(lint(webpolicy, fixtures, "--format", "sarif", "err")),
        "lint --format sarif policies/": json.loads(lint(webpolicy, ".", "--format", "sarif", policies)),
        golden: json.load(open(golden, encoding="utf-8")),
    }
    # `webpolicy audit --format sarif` on every fixture app (Swift, Objective-C, plists,
    # Interface Builder): findings at the app's own lines, against the same schema.
    audit_root = os.path.join("Tests", "Fixtures", "audit")
    for app in sorted(os.listdir(audit_root)):
        folder = os.path.join(audit_root, app)
        if not os.path.isdir(os.path.join(folder, "app")):
            continue  # not a fixture app (the WebKit API catalogue's citations live here too)
        result = subprocess.run([webpolicy, "audit", "--no-config", "--policy", os.path.join(folder, "policy.yaml"), os.path.join(folder, "app"),
                                 "--format", "sarif"], capture_output=True, text=True, check=False)
        if result.returncode not in (0, 1):
            sys.exit(f"webpolicy audit {app} exited {result.returncode}: {result.stderr}")
        document = json.loads(result.stdout)
        if not document["runs"][0]["results"]:
            failures.append(f"SARIF of audit {app} has no results")
        sarif_documents[f"audit --format sarif {app}"] = document
    # The first run, with no policy: the hazards' SARIF, as the audit job uploads it.
    first_run = subprocess.run([webpolicy, "audit", "--no-config", os.path.join(audit_root, "home-server", "app"), "--format", "sarif"],
                               capture_output=True, text=True, check=False)
    sarif_documents["audit --format sarif home-server (no policy)"] = json.loads(first_run.stdout)
    for name, document in sarif_documents.items():
        errors = list(sarif_validator.iter_errors(document))
        # GitHub ranks a security alert by its rule's properties.security-severity: a number
        # from 0.1 to 10 as a string, on every rule tagged "security".
        for rule in document["runs"][0]["tool"]["driver"]["rules"]:
            properties = rule.get("properties", {})
            if "security" not in properties.get("tags", []):
                continue
            score = properties.get("security-severity")
            try:
                valid = score is not None and 0.1 <= float(score) <= 10.0
            except ValueError:
                valid = False
            if not valid:
                failures.append(f"SARIF ({name}): rule {rule['id']} is tagged security but its security-severity is {score!r}")
        for error in errors[:5]:
            failures.append(f"SARIF ({name}): {'/'.join(map(str, error.absolute_path))}: {error.message}")
    results = len(sarif_documents["lint --format sarif err/"]["runs"][0]["results"])
    if results == 0:
        failures.append("SARIF over the error fixtures has no results")

    with open(policy_schema_path, encoding="utf-8") as handle:
        policy_schema = json.load(handle)
    policy_validator = jsonschema.Draft202012Validator(policy_schema)
    policy_files = sorted(
        os.path.join(folder, name)
        for folder, _, names in os.walk(policies)
        for name in names
        if name.endswith((".yaml", ".yml")) and not name.startswith(".")
    )
    if len(policy_files) < 5:
        failures.append(f"{policies} holds {len(policy_files)} policies; expected at least five")
    for path in policy_files:
        with open(path, encoding="utf-8") as handle:
            first = handle.readline()
        expected = os.path.relpath(policy_schema_path, os.path.dirname(path))
        if not re.match(rf"^# yaml-language-server: \$schema={re.escape(expected)}\s*$", first):
            failures.append(f"{path}: first line must be '# yaml-language-server: $schema={expected}'")
        for error in policy_validator.iter_errors(strict_yaml.load(path)):
            failures.append(f"{path}: {'/'.join(map(str, error.absolute_path))}: {error.message}")

    report = json.loads(lint(webpolicy, fixtures, "--format", "json", "err"))
    junit = ElementTree.fromstring(lint(webpolicy, fixtures, "--format", "junit", "err"))
    if int(junit.get("failures")) != report["summary"]["errors"]:
        failures.append(f"JUnit counts {junit.get('failures')} failures, JSON {report['summary']['errors']} errors")
    github = lint(webpolicy, fixtures, "--format", "github", "err").splitlines()
    if len(github) != len(report["diagnostics"]):
        failures.append(f"github format printed {len(github)} lines for {len(report['diagnostics'])} diagnostics")
    command = re.compile(r"^::(error|warning|notice) file=[^,:]+,line=\d+,col=\d+,endLine=\d+,endColumn=\d+,title=[^:,]+::.+$")
    failures += [f"malformed github line: {line}" for line in github if not command.match(line)]

    if failures:
        print("\n".join(failures))
        return 1
    print(f"outputs valid: SARIF ({results} results) against the SARIF 2.1.0 schema, {len(policy_files)} policies against the policy schema, JUnit and GitHub annotations")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
