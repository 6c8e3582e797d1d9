#!/usr/bin/env python3
"""Checks that the published crates' dependencies resolve to versions that build with the declared minimum Rust.

The workspace declares `rust-version` (the minimum supported Rust); the newest releases of some dependencies need
a newer one. Run in a copy of the workspace whose lockfile Cargo resolved for that minimum
(`CARGO_RESOLVER_INCOMPATIBLE_RUST_VERSIONS=fallback cargo generate-lockfile`), this reads `cargo metadata` and fails,
listing them, when a package that a published crate (`odm-mongo`, `odm-mongo-derive`, `odm-mongo-document`) needs
(every feature; normal and build dependencies, not the tests' own) declares a newer `rust-version` than theirs: then
no resolution builds on the minimum, and the README's requirement would be wrong.

Usage (what CI runs):

    dir="$(mktemp -d)"; git archive HEAD | tar -x -C "$dir"; cd "$dir"
    CARGO_RESOLVER_INCOMPATIBLE_RUST_VERSIONS=fallback cargo generate-lockfile
    python3 scripts/check_msrv.py
"""

import json
import subprocess
import sys

PUBLISHED = ("odm-mongo", "odm-mongo-derive", "odm-mongo-document")


def version(text):
    """`1.88` or `1.88.0` as a comparable tuple of three numbers."""
    parts = [int(p) for p in text.split(".")]
    return tuple(parts + [0] * (3 - len(parts)))


def main():
    out = subprocess.run(
        ["cargo", "metadata", "--format-version", "1", "--all-features", "--locked"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    meta = json.loads(out)
    packages = {p["id"]: p for p in meta["packages"]}
    roots = [p for p in meta["packages"] if p["name"] in PUBLISHED and p["source"] is None]
    if len(roots) != len(PUBLISHED):
        sys.exit(f"check_msrv: the published crates {PUBLISHED} are not all in this workspace")
    declared = {p["rust_version"] for p in roots}
    if len(declared) != 1 or None in declared:
        sys.exit(f"check_msrv: the published crates declare different or no rust-version: {sorted(map(str, declared))}")
    msrv = version(declared.pop())
    nodes = {n["id"]: n for n in meta["resolve"]["nodes"]}
    # Everything a user of the published crates builds: normal and build dependencies, on any platform.
    needed, todo = set(), [p["id"] for p in roots]
    while todo:
        node = nodes[todo.pop()]
        for dep in node["deps"]:
            kinds = {k["kind"] for k in dep["dep_kinds"]}
            if kinds & {None, "build"} and dep["pkg"] not in needed:
                needed.add(dep["pkg"])
                todo.append(dep["pkg"])
    newer = sorted(
        f'{packages[i]["name"]} {packages[i]["version"]} needs Rust {packages[i]["rust_version"]}'
        for i in needed
        if packages[i]["rust_version"] and version(packages[i]["rust_version"]) > msrv
    )
    shown = ".".join(map(str, msrv[:2]))
    if newer:
        print(f"check_msrv: dependencies that do not build with rust-version {shown}:", *newer, sep="\n  ")
        sys.exit(1)
    print(f"check_msrv: {len(needed)} dependencies of {', '.join(PUBLISHED)} build with Rust {shown}")


if __name__ == "__main__":
    main()
