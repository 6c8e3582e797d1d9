#!/usr/bin/env python3
"""Compile cost of the derive: `cargo check` after a `touch` of a crate with N derived models, against the same
crate with serde derives only, in one run (alternating, median of each side).

Each model is an order with embedded lines, a bounded array counted by an integer field, and one index. Both
crates live in a scratch workspace under `target/compile-cost/` (its own target directory, so dependencies are
built once and the figure counts only the models' crate).

Wall time is what a user waits; CPU time (user + system of cargo and rustc) is the steadier of the two on a busy
machine. Both are printed, each as the ratio of the two medians and as the median of each round's ratio (the two
checks of a round run back to back, so a change in the machine's speed between rounds cancels out of it). On a shared machine both still move by a few percent between runs, more than one change
to the derive usually saves; `--instructions` also counts the instructions of the compiler's own run on each crate
(under valgrind's cachegrind, as after a `touch` with the incremental state warm), which repeat to within a
fraction of a percent and so show such a change. They leave out cargo's own work (about 0.06 s more for the odm
crate's larger dependency tree), so their ratio is below the wall-time one.

`--core` makes the models' crate depend on odm's driver-free core (`default-features = false, features =
["derive"]`, as a crate of shared models would) instead of odm with the driver; its scratch workspace is
`target/compile-cost-core/`, so switching does not rebuild the other one's dependencies.

Usage: python3 scripts/compile_cost.py [--models 100] [--rounds 7] [--instructions] [--core]
"""

import argparse
import os
import pathlib
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent


def model_source(i: int, derive: bool) -> str:
    odm_line = "#[derive(odm::Embedded, serde::Serialize, serde::Deserialize)]" if derive else \
        "#[derive(serde::Serialize, serde::Deserialize)]"
    model_line = "#[derive(odm::Model, serde::Serialize, serde::Deserialize)]" if derive else \
        "#[derive(serde::Serialize, serde::Deserialize)]"
    attrs = (f'#[odm(collection = "order_{i}", closed, index(keys = "number, -created"))]\n') if derive else ""
    bound = '    #[odm(max_items = 50, counter = "line_count")]\n' if derive else ""
    return f"""
/// A line of order {i}.
{odm_line}
pub struct Line{i} {{
    #[serde(rename = "n")]
    pub name: String,
    #[serde(rename = "p")]
    pub price: f64,
    #[serde(rename = "q")]
    pub quantity: i32,
}}

/// Order {i}.
{model_line}
{attrs}pub struct Order{i} {{
    #[serde(rename = "_id")]
    pub id: bson::oid::ObjectId,
    #[serde(rename = "no")]
    pub number: String,
    #[serde(rename = "ca")]
    pub created: bson::DateTime,
    #[serde(rename = "l")]
{bound}    pub lines: Vec<Line{i}>,
    #[serde(rename = "lc")]
    pub line_count: i32,
    #[serde(rename = "rm", skip_serializing_if = "Option::is_none")]
    pub remark: Option<String>,
}}
"""


def write_workspace(base: pathlib.Path, models: int, core: bool) -> None:
    (base / "odm_models" / "src").mkdir(parents=True, exist_ok=True)
    (base / "serde_models" / "src").mkdir(parents=True, exist_ok=True)
    (base / "Cargo.toml").write_text('[workspace]\nresolver = "2"\nmembers = ["odm_models", "serde_models"]\n')
    odm = ROOT / "odm"
    common = ('serde = { version = "1", features = ["derive"] }\n'
              'bson = { version = "3.1", features = ["serde"] }\n')
    (base / "odm_models" / "Cargo.toml").write_text(
        '[package]\nname = "odm_models"\nversion = "0.0.0"\nedition = "2021"\npublish = false\n\n[dependencies]\n'
        + common + (f'odm-mongo = {{ path = "{odm}", default-features = false, features = ["derive"] }}\n' if core
                    else f'odm-mongo = {{ path = "{odm}" }}\n'))
    (base / "serde_models" / "Cargo.toml").write_text(
        '[package]\nname = "serde_models"\nversion = "0.0.0"\nedition = "2021"\npublish = false\n\n[dependencies]\n'
        + common)
    for crate, derive in (("odm_models", True), ("serde_models", False)):
        src = "#![allow(missing_docs)]\n" + "".join(model_source(i, derive) for i in range(models))
        (base / crate / "src" / "lib.rs").write_text(src)
    lock = ROOT / "Cargo.lock"
    if lock.exists() and not (base / "Cargo.lock").exists():
        (base / "Cargo.lock").write_text(lock.read_text())


def cargo_env(base: pathlib.Path) -> dict[str, str]:
    """The environment of every cargo run on the scratch workspace (its own target directory)."""
    return dict(os.environ, CARGO_TARGET_DIR=str(base / "target"), CARGO_TERM_COLOR="never")


def check(base: pathlib.Path, crate: str) -> tuple[float, float]:
    """Wall time and CPU time (user + system, of cargo and rustc) of one `cargo check` after a touch."""
    (base / crate / "src" / "lib.rs").touch()
    env = cargo_env(base)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(["cargo", "check", "-q", "-p", crate], cwd=base, env=env, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def rustc_command(base: pathlib.Path, crate: str) -> list[str]:
    """The compiler invocation cargo runs for `crate` (from `cargo check -v` after a touch, which also leaves the
    incremental state warm)."""
    (base / crate / "src" / "lib.rs").touch()
    out = subprocess.run(["cargo", "check", "-v", "-p", crate], cwd=base, env=cargo_env(base), check=True,
                         capture_output=True, text=True)
    for line in out.stderr.splitlines():
        line = line.strip()
        if line.startswith("Running `") and f"--crate-name {crate} " in line:
            return shlex.split(line[len("Running `"):-1])
    raise SystemExit(f"compile_cost: no compiler invocation for {crate} in `cargo check -v` output")


def instructions(base: pathlib.Path, crate: str) -> int:
    """Instructions of the compiler's run on `crate` after a touch, incremental state warm."""
    cmd = rustc_command(base, crate)
    (base / crate / "src" / "lib.rs").touch()
    out = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", *cmd],
                         cwd=base, capture_output=True, text=True)
    for line in out.stderr.splitlines():
        if "I   refs:" in line or "I refs:" in line:
            return int(line.split(":")[-1].strip().replace(",", ""))
    raise SystemExit(f"compile_cost: valgrind gave no instruction count for {crate}:\n{out.stderr[-2000:]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--instructions", action="store_true",
                        help="also count the compiler's instructions on each crate (needs valgrind)")
    parser.add_argument("--core", action="store_true",
                        help="depend on odm's driver-free core (no default features, `derive` only)")
    args = parser.parse_args()
    base = ROOT / "target" / ("compile-cost-core" if args.core else "compile-cost")
    write_workspace(base, args.models, args.core)
    for crate in ("odm_models", "serde_models"):  # warm-up: dependencies and a first check of each
        check(base, crate)
    wall = {"odm_models": [], "serde_models": []}
    cpu = {"odm_models": [], "serde_models": []}
    for r in range(args.rounds):
        order = ("odm_models", "serde_models") if r % 2 == 0 else ("serde_models", "odm_models")
        for crate in order:
            w, c = check(base, crate)
            wall[crate].append(w)
            cpu[crate].append(c)
    fmt = lambda xs: ", ".join(f"{x:.2f}" for x in xs)
    odm_dependency = "the driver-free core" if args.core else "odm with the driver"
    print(f"cargo check after touch, {args.models} models ({odm_dependency}), {args.rounds} alternating rounds")
    for name, t in (("wall", wall), ("cpu", cpu)):
        odm, serde = statistics.median(t["odm_models"]), statistics.median(t["serde_models"])
        print(f"{name}: odm derives median {odm:.2f} s [{fmt(t['odm_models'])}]")
        print(f"{name}: serde derives only median {serde:.2f} s [{fmt(t['serde_models'])}]")
        print(f"{name} ratio (median): {odm / serde:.2f}x")
        # Each round's two checks ran back to back, so their ratio leaves out the machine's drift between rounds.
        paired = statistics.median(o / s for o, s in zip(t["odm_models"], t["serde_models"]))
        print(f"{name} ratio (median of each round's ratio): {paired:.2f}x")
    if args.instructions:
        if shutil.which("valgrind") is None:
            print("instructions: valgrind is not on PATH; skipped")
            return 0
        odm, serde = instructions(base, "odm_models"), instructions(base, "serde_models")
        print(f"instructions (compiler alone): odm derives {odm:,}, serde derives only {serde:,}, "
              f"ratio {odm / serde:.3f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
