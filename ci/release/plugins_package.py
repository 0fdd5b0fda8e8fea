#!/usr/bin/env python3
"""Writes the publishable copy of the plugins-only package (ci/release/plugins):

    python3 ci/release/plugins_package.py OUT_FOLDER --url URL --checksum SHA256

The copy holds files, not the links to the main package's plugins, and its binary target names
the release's artifact bundle by URL and checksum instead of the local zip: what the release
workflow pushes to the plugins' own repository (SwiftPM takes a package from a repository's
root only)."""
import argparse
import pathlib
import re
import shutil

LOCAL = '.binaryTarget(name: "webpolicy", path: "webpolicy.artifactbundle.zip")'

parser = argparse.ArgumentParser()
parser.add_argument("out")
parser.add_argument("--url", required=True)
parser.add_argument("--checksum", required=True)
arguments = parser.parse_args()
if not re.fullmatch(r"[0-9a-f]{64}", arguments.checksum):
    parser.error(f"not a SHA-256: {arguments.checksum}")
if not arguments.url.startswith("https://") or '"' in arguments.url:
    parser.error(f"not an https URL: {arguments.url}")

source = pathlib.Path(__file__).resolve().parent / "plugins"
out = pathlib.Path(arguments.out)
if out.exists():
    shutil.rmtree(out)
shutil.copytree(source, out, symlinks=False, ignore=shutil.ignore_patterns(".build", "*.artifactbundle.zip", ".swiftpm"))
manifest = out / "Package.swift"
text = manifest.read_text()
if text.count(LOCAL) != 1:
    raise SystemExit(f"{source / 'Package.swift'} no longer holds the line {LOCAL}")
text = text.replace(LOCAL, f'.binaryTarget(name: "webpolicy", url: "{arguments.url}", checksum: "{arguments.checksum}")')
text = text.replace(
    "// In this repository the binary target is the bundle ci/release/build.sh wrote, copied here;\n"
    "// the release script publishes a copy whose binary target names the release's URL and checksum.\n",
    "// Published by webpolicy's release script: the binary target is the release's artifact bundle.\n",
)
manifest.write_text(text)
(out / ".gitignore").write_text("/.build/\n")
print(f"{out}: the plugins-only package, webpolicy from {arguments.url}")
