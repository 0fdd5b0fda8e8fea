#!/usr/bin/env python3
"""Checks that schemas/webpolicy.schema.json and webpolicy's loader agree.

usage: schema_agreement.py WEBPOLICY SCHEMA ROOT [ROOT ...]

For every *.yaml / *.yml under each ROOT (hidden entries skipped), with webpolicy's own
diagnostics from `webpolicy lint --format json` and the rule catalogue from
`webpolicy rules --format json`:

- a file webpolicy refuses as YAML (file-* and yaml-* checks) must be refused by the strict
  Python YAML loader too, except for yaml-limits (alias bombs, extreme nesting), which is not
  loaded at all: the schema cannot see YAML, and expanding a bomb is what the check prevents;
- otherwise the schema and webpolicy must agree entry by entry: each item of a section
  (a content rule, a cookie, …) is validated against its own part of the schema, and must be
  rejected exactly when webpolicy reports a structural problem (a loader check, or a rule
  marked `enforcedBySchema`) on its lines; the rest of the document (sections emptied) is
  validated whole and compared with the structural problems outside every entry.

Include problems (include-not-found, include-cycle, include-invalid, file-unreadable on an
include entry) concern how files relate, which a schema of one file cannot know; they are left
out. Exits 1 on any disagreement, listing each.
"""

import json
import os
import subprocess
import sys

import jsonschema

import strict_yaml

YAML_LEVEL = {"file-empty", "file-binary", "file-encoding", "yaml-syntax", "yaml-duplicate-key", "yaml-tag", "yaml-multiple-documents"}
NOT_LOADED = {"yaml-limits"}
RELATIONS = {"include-not-found", "include-cycle", "include-invalid", "file-unreadable"}


def policy_files(root):
    for folder, folders, files in os.walk(root):
        folders[:] = sorted(name for name in folders if not name.startswith("."))
        for name in sorted(files):
            if not name.startswith(".") and name.endswith((".yaml", ".yml")):
                yield os.path.relpath(os.path.join(folder, name), root)


def run_json(command, cwd):
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False)
    if result.returncode not in (0, 1):
        sys.exit(f"{' '.join(command)} failed with {result.returncode}:\n{result.stderr}")
    return json.loads(result.stdout)


def main(arguments):
    if len(arguments) < 4:
        sys.exit(__doc__)
    webpolicy, schema_path, roots = os.path.abspath(arguments[1]), arguments[2], arguments[3:]
    with open(schema_path, encoding="utf-8") as handle:
        schema = json.load(handle)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)

    catalogue = run_json([webpolicy, "rules", "--format", "json"], cwd=".")
    structural = {check["id"] for check in catalogue["loaderChecks"]} - YAML_LEVEL - NOT_LOADED - RELATIONS
    structural |= {rule["id"] for rule in catalogue["rules"] if rule["enforcedBySchema"]}

    failures = []
    checked = 0
    for root in roots:
        files = list(policy_files(root))
        report = run_json([webpolicy, "lint", "--no-config", "--format", "json", *files], cwd=root)
        by_file = {}
        for diagnostic in report["diagnostics"]:
            by_file.setdefault(diagnostic["file"], set()).add(diagnostic["rule"])
        for path in files:
            checked += 1
            rules = by_file.get(os.path.normpath(path), set())
            full = os.path.join(root, path)
            if rules & NOT_LOADED:
                continue
            try:
                data = strict_yaml.load(full)
            except (yaml_errors() + (UnicodeDecodeError, strict_yaml.NotAPolicyDocument)) as error:
                if not rules & YAML_LEVEL:
                    failures.append(f"{full}: Python refuses the YAML ({type(error).__name__}) but webpolicy reports {sorted(rules) or 'nothing'}")
                continue
            if rules & YAML_LEVEL:
                failures.append(f"{full}: webpolicy refuses the YAML ({sorted(rules & YAML_LEVEL)}) but Python loads it")
                continue
            diagnostics = [d for d in report["diagnostics"] if d["file"] == os.path.normpath(path) and d["rule"] in structural]
            for unit, instance, unit_validator, lines in units(full, data, schema):
                errors = list(unit_validator.iter_errors(instance))
                found = sorted({d["rule"] for d in diagnostics if lines is None or d["line"] in lines})
                if lines is None:
                    entry_lines = {line for _, _, _, other in units(full, data, schema) if other for line in other}
                    found = sorted({d["rule"] for d in diagnostics if d["line"] not in entry_lines})
                if bool(errors) != bool(found):
                    reasons = "; ".join(error.message for error in errors[:2])
                    failures.append(f"{full} {unit}: schema {'rejects (' + reasons + ')' if errors else 'accepts'}, webpolicy reports {found or 'nothing'}")
    if failures:
        print(f"schema and loader disagree on {len(failures)} of {checked} files:")
        print("\n".join("  " + failure for failure in failures))
        return 1
    print(f"schema and loader agree on {checked} files")
    return 0


SECTIONS = {
    "http-allowlist": "httpAllowlistEntry",
    "scheme-allowlist": "schemeAllowlistEntry",
    "content-rules": "contentRule",
    "cookies": "cookie",
    "interception": "interceptionRule",
}


def units(path, data, schema):
    """(name, instance, validator, lines) per section entry, then the rest of the document
    (lines None), with each entry's lines from its start to the next entry's start."""
    result = []
    if not isinstance(data, dict):
        return [("document", data, jsonschema.Draft202012Validator(schema), None)]
    with open(path, encoding="utf-8") as handle:
        root = strict_yaml.yaml.compose(handle.read(), Loader=strict_yaml.StrictLoader)
    rest = dict(data)
    for key_node, value_node in root.value:
        key = key_node.value
        if key not in SECTIONS or not isinstance(data.get(key), list) or value_node.tag != "tag:yaml.org,2002:seq":
            continue
        rest[key] = []
        validator = jsonschema.Draft202012Validator({"$defs": schema["$defs"], "$ref": f"#/$defs/{SECTIONS[key]}"})
        starts = [item.start_mark.line + 1 for item in value_node.value] + [value_node.end_mark.line + 1]
        for index, item in enumerate(data[key]):
            last = max(starts[index + 1] - 1, starts[index])
            result.append((f"{key}[{index}]", item, validator, set(range(starts[index], last + 1))))
    result.append(("document", rest, jsonschema.Draft202012Validator(schema), None))
    return result


def yaml_errors():
    return (strict_yaml.yaml.YAMLError,)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
