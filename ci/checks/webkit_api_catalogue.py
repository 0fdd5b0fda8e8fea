"""Checks the audit's WebKit API catalogue against WebKit's own source, and writes where WebKit
declares each API.

usage: webkit_api_catalogue.py WEBKIT_SOURCE CITATIONS [--write]

WEBKIT_SOURCE is a folder holding WebKit's files at their repository paths (a checkout of
WebKit/WebKit, or the files the catalogue names). CITATIONS is
Tests/Fixtures/audit/webkit-api-citations.txt: one line per spelling of every catalogue row,

    objc SELECTOR PATH[:LINE]
    property NAME PATH[:LINE]
    swift SPELLING PATH[:LINE]

(the test WebKitAPICatalogueTests requires exactly the catalogue's spellings there, so a row
cannot be added without a line). For each line this script finds the declaration in PATH —
an Objective-C method whose selector is SELECTOR; an Objective-C `@property` named NAME (the
settings of `webview:`, `WebViewSettingCatalogue`); for a Swift property of a header, the
`@property` whose Swift name it is (`NS_SWIFT_NAME`, its `getter=`, or its own name); for a
Swift spelling of an Objective-C API,
its NS_SWIFT_NAME or the declaration the Swift importer names so (base name and labels
prefixes of the selector's pieces, as its omit-needless-words rule shortens them; an
initialiser from `initWith…`); in a Swift file, the `func` with those labels or the `var` —
and fails for any it cannot find: a misspelt API cannot sit in the catalogue unnoticed.
With --write it rewrites CITATIONS with the line numbers found.
"""
import os
import re
import sys

METHOD = re.compile(r"^\s*[-+]\s*\(")


def objc_declarations(text):
    """(selector, first line, declaration text) of every Objective-C method declaration."""
    lines = text.split("\n")
    found = []
    index = 0
    while index < len(lines):
        if not METHOD.match(lines[index]):
            index += 1
            continue
        start = index
        declaration = lines[index]
        while ";" not in declaration and "{" not in declaration and index + 1 < len(lines):
            index += 1
            declaration += " " + lines[index]
        index += 1
        body = declaration.split(";")[0]
        # Drop the return type, then read `piece:(type)name` pairs.
        body = re.sub(r"^\s*[-+]\s*\([^)]*\)\s*", "", body)
        body = re.sub(r"\([^()]*(\([^()]*\)[^()]*)*\)", " ", body)  # argument types, block types included
        pieces = re.findall(r"([A-Za-z_][A-Za-z0-9_]*)\s*:", body)
        if pieces:
            selector = "".join(piece + ":" for piece in pieces)
        else:
            name = re.match(r"\s*([A-Za-z_][A-Za-z0-9_]*)", body)
            selector = name.group(1) if name else ""
        found.append((selector, start + 1, declaration))
    return found


def swift_parts(spelling):
    """`add(_:contentWorld:name:)` → ("add", ["_", "contentWorld", "name"]); `x(_:…)` → ("x", None); `v` → ("v", "property")."""
    if "(" not in spelling:
        return spelling, "property"
    name, rest = spelling.split("(", 1)
    rest = rest.rstrip(")")
    if rest.endswith("…"):
        return name, None
    return name, [label for label in rest.split(":") if label]


def imported_name_matches(name, labels, selector):
    """Whether Swift's importer can name `selector` as `name(labels)`: each a prefix of its piece."""
    pieces = [piece for piece in selector.split(":") if piece]
    if not pieces:
        return False
    if name[:1].isupper():
        # An initialiser: `initWithSource:…` is `Type(source:…)`.
        if not pieces[0].startswith("initWith"):
            return False
        first = pieces[0][len("initWith"):]
        pieces = [first[:1].lower() + first[1:]] + pieces[1:]
        wanted = labels or []
    else:
        if not pieces[0].startswith(name):
            return False
        if labels is None:
            return True
        if not labels or labels[0] != "_":
            return False
        pieces, wanted = pieces[1:], labels[1:]
    if labels is None:
        return True
    # A trailing completion handler goes when Swift makes the call async.
    if len(pieces) == len(wanted) + 1 and pieces[-1] == "completionHandler":
        pieces = pieces[:-1]
    return len(pieces) == len(wanted) and all(piece.lower().startswith(label.lower()) for piece, label in zip(pieces, wanted))


def find_objc(text, selector):
    for found, line, _ in objc_declarations(text):
        if found == selector:
            return line
    return None


PROPERTY = re.compile(r"^\s*@property\s*(\(([^)]*)\))?[^;]*?\b([A-Za-z_][A-Za-z0-9_]*)\s*(WK_|NS_|API_|;)")


def objc_properties(text):
    """(name, getter, Swift name, line) of every `@property` declaration."""
    found = []
    for index, line in enumerate(text.split("\n"), 1):
        match = PROPERTY.match(line)
        if not match:
            continue
        attributes = match.group(2) or ""
        getter = re.search(r"getter\s*=\s*([A-Za-z_][A-Za-z0-9_]*)", attributes)
        swift = re.search(r"NS_SWIFT_NAME\(([A-Za-z_][A-Za-z0-9_]*)\)", line)
        found.append((match.group(3), getter.group(1) if getter else None, swift.group(1) if swift else None, index))
    return found


def find_property(text, name):
    for found, _, _, line in objc_properties(text):
        if found == name:
            return line
    return None


def find_swift_in_header(text, spelling):
    name, labels = swift_parts(spelling)
    if labels == "property":
        for found, getter, swift, line in objc_properties(text):
            if name in (swift, getter) or (swift is None and getter is None and found == name):
                return line
        return None
    if labels != "property":
        written = name + "(" + "".join(label + ":" for label in labels) + ")" if labels is not None else None
        for index, line in enumerate(text.split("\n"), 1):
            if written and "NS_SWIFT_NAME(" + written + ")" in line:
                return index
        for selector, line, _ in objc_declarations(text):
            if imported_name_matches(name, labels, selector):
                return line
    return None


def find_swift_in_swift(text, spelling):
    name, labels = swift_parts(spelling)
    lines = text.split("\n")
    if labels == "property":
        for index, line in enumerate(lines, 1):
            if re.search(r"\b(var|let)\s+" + re.escape(name) + r"\b", line):
                return index
        return None
    for index, line in enumerate(lines, 1):
        if not re.search(r"\bfunc\s+" + re.escape(name) + r"\s*[(<]", line):
            continue
        declaration = line
        following = index
        while declaration.count("(") > declaration.count(")") and following < len(lines):
            declaration += " " + lines[following]
            following += 1
        if labels is None:
            return index
        parameters = declaration.split(name, 1)[1]
        parameters = parameters[parameters.index("(") + 1:]
        depth, current, found = 0, "", []
        for character in parameters:
            if character in "([<":
                depth += 1
            elif character in ")]>":
                if depth == 0:
                    break
                depth -= 1
            if character == "," and depth == 0:
                found.append(current)
                current = ""
            else:
                current += character
        if current.strip():
            found.append(current)
        names = [part.strip().split(":")[0].split()[0] for part in found if ":" in part]
        if names == labels:
            return index
    return None


def main():
    arguments = [argument for argument in sys.argv[1:] if not argument.startswith("--")]
    if len(arguments) != 2:
        raise SystemExit(__doc__)
    source, citations = arguments
    write = "--write" in sys.argv
    with open(citations, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    problems, out = [], []
    checked = 0
    for line in lines:
        if not line.strip() or line.startswith("#"):
            out.append(line)
            continue
        kind, spelling, place = line.split(" ")
        path = place.split(":")[0]
        full = os.path.join(source, path)
        if not os.path.exists(full):
            problems.append("%s: %s is not in %s" % (spelling, path, source))
            out.append(line)
            continue
        with open(full, encoding="utf-8") as handle:
            text = handle.read()
        if kind == "objc":
            found = find_objc(text, spelling)
        elif kind == "property":
            found = find_property(text, spelling)
        elif path.endswith(".swift"):
            found = find_swift_in_swift(text, spelling)
        else:
            found = find_swift_in_header(text, spelling)
        checked += 1
        if found is None:
            problems.append("%s %s: no declaration of it in %s" % (kind, spelling, path))
            out.append(line)
        else:
            out.append("%s %s %s:%d" % (kind, spelling, path, found))
    for problem in problems:
        print(problem, file=sys.stderr)
    if write and not problems:
        with open(citations, "w", encoding="utf-8") as handle:
            handle.write("\n".join(out).rstrip("\n") + "\n")
    print("%d spellings checked against %s, %d not found" % (checked, source, len(problems)))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
