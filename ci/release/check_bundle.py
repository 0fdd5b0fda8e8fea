#!/usr/bin/env python3
"""Checks a release folder that ci/release/build.sh wrote:

    python3 ci/release/check_bundle.py OUT

- webpolicy.artifactbundle.zip unzips to one `*.artifactbundle` folder whose info.json is what
  SE-0305 specifies (schemaVersion "1.0"; `artifacts`: for each, a `version`, `type`
  "executable" and `variants`, each a relative `path` to a file in the bundle and a non-empty
  list of `supportedTriples`), with no other keys; every variant's path is an executable, this
  machine's triple is among them, and the version is the binary's own;
- each checksum file matches its file (the bundle's is `swift package compute-checksum`'s bare
  hex; the tarball's is in sha256sum's format), and the tarball holds the same binary.
Exits 1 naming what is wrong."""
import hashlib
import json
import os
import pathlib
import platform
import re
import stat
import subprocess
import sys
import tarfile
import tempfile
import zipfile

problems = []


def check(condition, message):
    if not condition:
        problems.append(message)
    return condition


def sha256(path):
    return hashlib.sha256(pathlib.Path(path).read_bytes()).hexdigest()


def host_triple():
    machine = platform.machine()
    if sys.platform == "darwin":
        return ("arm64" if machine == "arm64" else "x86_64") + "-apple-macosx"
    return {"amd64": "x86_64", "arm64": "aarch64"}.get(machine, machine) + "-unknown-linux-gnu"


def check_info(info, root):
    check(set(info) == {"schemaVersion", "artifacts"}, f"info.json: keys {sorted(info)}, SE-0305 has schemaVersion and artifacts")
    check(info.get("schemaVersion") == "1.0", f"info.json: schemaVersion {info.get('schemaVersion')!r}, not \"1.0\"")
    artifacts = info.get("artifacts")
    if not check(isinstance(artifacts, dict) and artifacts, "info.json: artifacts is not a non-empty object"):
        return []
    executables = []
    for name, artifact in artifacts.items():
        where = f"info.json: artifacts.{name}"
        if not check(isinstance(artifact, dict), f"{where} is not an object"):
            continue
        check(set(artifact) == {"version", "type", "variants"}, f"{where}: keys {sorted(artifact)}")
        check(isinstance(artifact.get("version"), str) and artifact["version"], f"{where}.version is not a string")
        check(artifact.get("type") == "executable", f"{where}.type is {artifact.get('type')!r}, not \"executable\"")
        variants = artifact.get("variants")
        if not check(isinstance(variants, list) and variants, f"{where}.variants is not a non-empty list"):
            continue
        for index, variant in enumerate(variants):
            place = f"{where}.variants[{index}]"
            if not check(isinstance(variant, dict) and set(variant) == {"path", "supportedTriples"}, f"{place}: keys {sorted(variant) if isinstance(variant, dict) else variant}"):
                continue
            path, triples = variant["path"], variant["supportedTriples"]
            check(isinstance(triples, list) and triples and all(isinstance(t, str) and re.fullmatch(r"[a-z0-9_]+-[a-z]+-[a-z0-9.]+(-[a-z0-9]+)?", t) for t in triples),
                  f"{place}.supportedTriples {triples!r} is not a list of target triples")
            if not check(isinstance(path, str) and not path.startswith("/") and ".." not in path.split("/"), f"{place}.path {path!r} is not relative inside the bundle"):
                continue
            file = root / path
            if check(file.is_file(), f"{place}.path {path} is not in the bundle"):
                check(file.stat().st_mode & stat.S_IXUSR, f"{place}.path {path} is not executable")
                executables.append((artifact.get("version"), triples, file))
    return executables


def main(out):
    out = pathlib.Path(out)
    bundle = out / "webpolicy.artifactbundle.zip"
    recorded = (out / "webpolicy.artifactbundle.zip.sha256").read_text().strip()
    check(re.fullmatch(r"[0-9a-f]{64}", recorded) and recorded == sha256(bundle), "webpolicy.artifactbundle.zip.sha256 does not match the bundle")
    with tempfile.TemporaryDirectory() as scratch:
        # unzip, as SwiftPM does, so the executable bit is what a user gets.
        subprocess.run(["unzip", "-q", str(bundle), "-d", scratch], check=True)
        roots = [p for p in pathlib.Path(scratch).iterdir()]
        if not check(len(roots) == 1 and roots[0].name.endswith(".artifactbundle") and roots[0].is_dir(),
                     f"the zip holds {[p.name for p in roots]}, not one *.artifactbundle folder"):
            return
        root = roots[0]
        info = json.loads((root / "info.json").read_text())
        executables = check_info(info, root)
        check(any(host_triple() in triples for _, triples, _ in executables), f"no variant for this machine ({host_triple()})")
        for version, triples, file in executables:
            if host_triple() in triples:
                printed = subprocess.run([str(file), "--version"], capture_output=True, text=True, check=True).stdout.split(" ")[0]
                check(printed == version, f"{file.name} --version prints {printed}, info.json says {version}")
                tarballs = sorted(out.glob(f"webpolicy-{version}-*.tar.gz"))
                if check(len(tarballs) == 1, f"expected one tarball of {version} in {out}, found {[t.name for t in tarballs]}"):
                    tarball = tarballs[0]
                    line = (out / (tarball.name + ".sha256")).read_text().split()
                    check(line == [sha256(tarball), tarball.name], f"{tarball.name}.sha256 is not sha256sum's line for it")
                    with tarfile.open(tarball) as archive:
                        inside = file.relative_to(root).as_posix()
                        check(archive.extractfile(inside).read() == file.read_bytes(), f"the tarball's {inside} differs from the bundle's")
    if problems:
        print("\n".join(problems), file=sys.stderr)
        sys.exit(1)
    print(f"{bundle}: SE-0305 info.json, {sum(len(v['variants']) for v in info['artifacts'].values())} variant(s), checksums match")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
