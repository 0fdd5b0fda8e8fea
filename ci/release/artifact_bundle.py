#!/usr/bin/env python3
"""Assembles webpolicy's SwiftPM artifact bundle (SE-0305) from release tarballs:

    python3 ci/release/artifact_bundle.py OUT.artifactbundle.zip TARBALL...

Each TARBALL is `webpolicy-VERSION-PLATFORM.tar.gz`, as ci/release/build.sh writes it, holding
`webpolicy-VERSION-PLATFORM/bin/webpolicy`; PLATFORM is a target triple, or
`universal-apple-macosx` for a macOS binary with both architectures. The bundle holds every
tarball's folder and an `info.json` with one variant each. build.sh calls it with the one tarball
it built; the release workflow with all of them.

The zip is reproducible: entries sorted, one fixed time stamp, the executable bit kept (SwiftPM
runs the binary from the unzipped bundle)."""
import io
import json
import re
import sys
import tarfile
import zipfile

NAME = "webpolicy"
TRIPLES = {"universal-apple-macosx": ["arm64-apple-macosx", "x86_64-apple-macosx"]}
TARBALL = re.compile(r"(?:.*/)?webpolicy-(?P<version>[0-9][0-9A-Za-z.+-]*?)-(?P<platform>(?:x86_64|aarch64|arm64|universal)-[a-z0-9_-]+)\.tar\.gz$")
STAMP = (1980, 1, 1, 0, 0, 0)


def fail(message):
    sys.exit(f"artifact_bundle: {message}")


def main(out, tarballs):
    if not out.endswith(".artifactbundle.zip"):
        fail(f"{out}: the bundle's name must end in .artifactbundle.zip")
    if not tarballs:
        fail("no tarballs given")
    bundle = out.rsplit("/", 1)[-1][: -len(".zip")]
    files, variants, versions = {}, [], set()
    for path in tarballs:
        match = TARBALL.match(path)
        if not match:
            fail(f"{path}: not a webpolicy-VERSION-PLATFORM.tar.gz")
        versions.add(match["version"])
        folder = f"webpolicy-{match['version']}-{match['platform']}"
        with tarfile.open(path) as archive:
            for member in archive.getmembers():
                if not member.isfile():
                    continue
                if not member.name.startswith(folder + "/"):
                    fail(f"{path}: {member.name} is outside {folder}/")
                files[f"{bundle}/{member.name}"] = (archive.extractfile(member).read(), member.mode & 0o111 != 0)
        executable = f"{folder}/bin/{NAME}"
        if f"{bundle}/{executable}" not in files:
            fail(f"{path}: no {executable}")
        variants.append({"path": executable, "supportedTriples": TRIPLES.get(match["platform"], [match["platform"]])})
    if len(versions) != 1:
        fail(f"the tarballs are of different versions: {', '.join(sorted(versions))}")
    info = {
        "schemaVersion": "1.0",
        "artifacts": {NAME: {"version": versions.pop(), "type": "executable", "variants": sorted(variants, key=lambda v: v["path"])}},
    }
    files[f"{bundle}/info.json"] = ((json.dumps(info, indent=2) + "\n").encode(), False)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(files):
            data, executable = files[name]
            entry = zipfile.ZipInfo(name, STAMP)
            entry.create_system = 3  # Unix, so unzip applies the mode below
            entry.external_attr = (0o100755 if executable else 0o100644) << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, data)
    with open(out, "wb") as file:
        file.write(buffer.getvalue())
    print(f"{out}: {', '.join(t for v in info['artifacts'][NAME]['variants'] for t in v['supportedTriples'])}")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2:])
