"""YAML read the way webpolicy reads it, for checks written in Python.

PyYAML speaks YAML 1.1, where `yes`, `on` and `2027-01-01` are not strings. webpolicy reads
the YAML 1.2 core schema with one restriction (only `true`/`false` are booleans) and refuses
duplicate keys, so a schema check on PyYAML's default output would disagree with the loader
for reasons that have nothing to do with the schema. This loader removes those differences.
"""

import re

import yaml


class StrictLoader(yaml.SafeLoader):
    """SafeLoader with YAML 1.2 core scalars, no timestamps, and duplicate keys refused."""


StrictLoader.yaml_implicit_resolvers = {}

_RESOLVERS = [
    ("tag:yaml.org,2002:bool", r"^(?:true|false)$", list("tf")),
    ("tag:yaml.org,2002:int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", list("-+0123456789")),
    (
        "tag:yaml.org,2002:float",
        r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
        list("-+.0123456789"),
    ),
    ("tag:yaml.org,2002:null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
    ("tag:yaml.org,2002:merge", r"^(?:<<)$", ["<"]),
]
for _tag, _pattern, _first in _RESOLVERS:
    StrictLoader.add_implicit_resolver(_tag, re.compile(_pattern), _first)


def _construct_int(loader, node):
    text = loader.construct_scalar(node)
    if text.startswith("0o"):
        return int(text[2:], 8)
    if text.startswith("0x"):
        return int(text[2:], 16)
    return int(text, 10)


def _construct_float(loader, node):
    text = loader.construct_scalar(node).lower()
    if text.endswith(".inf"):
        return float("-inf") if text.startswith("-") else float("inf")
    if text.endswith(".nan"):
        return float("nan")
    if "." not in text and "e" not in text:
        return int(text)
    return float(text)


def _construct_mapping(loader, node, deep=False):
    # Duplicates among the keys written here; keys brought in by '<<' may be overridden.
    seen = set()
    for key_node, _ in node.value:
        if key_node.tag == "tag:yaml.org,2002:merge":
            continue
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise yaml.constructor.ConstructorError(None, None, f"duplicate key {key!r}", key_node.start_mark)
        seen.add(key)
    loader.flatten_mapping(node)
    return yaml.SafeLoader.construct_mapping(loader, node, deep=deep)


StrictLoader.add_constructor("tag:yaml.org,2002:int", _construct_int)
StrictLoader.add_constructor("tag:yaml.org,2002:float", _construct_float)
StrictLoader.construct_mapping = _construct_mapping


class NotAPolicyDocument(Exception):
    """The file is not one YAML document holding a value."""


def load(path):
    """The policy at `path` as Python data; raises for anything webpolicy refuses as YAML."""
    with open(path, encoding="utf-8", errors="strict") as handle:
        text = handle.read()
    if "\x00" in text:
        raise NotAPolicyDocument("NUL byte")
    data = yaml.load(text, Loader=StrictLoader)
    if data is None:
        raise NotAPolicyDocument("empty document")
    return data
