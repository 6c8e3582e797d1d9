"""Shared by the instruction-count scripts (decode_cost.py, read_cost.py, statement_cost.py): building a bench
executable, counting the instructions of one run of it under valgrind's callgrind, and counting each side of a
comparison per iteration."""

import json
import pathlib
import subprocess

ROOT = pathlib.Path(__file__).resolve().parent.parent


def bench_executable(bench: str) -> str:
    """The executable of odm-tests' bench `bench`, built in the bench profile (`cargo bench --no-run`)."""
    out = subprocess.run(
        ["cargo", "bench", "-p", "odm-tests", "--bench", bench, "--no-run", "--message-format=json"],
        cwd=ROOT, capture_output=True, text=True, check=True)
    for line in out.stdout.splitlines():
        msg = json.loads(line)
        if msg.get("reason") == "compiler-artifact" and msg["target"]["name"] == bench and msg.get("executable"):
            return msg["executable"]
    raise SystemExit(f"cargo built no {bench} bench executable")


def instructions(exe: str, env: dict[str, str], profile: str = "/dev/null") -> int:
    """Instructions of one run of `exe` with `env`, counted by callgrind (its profile written to `profile`, for
    `callgrind_annotate`)."""
    out = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={profile}", exe],
                         env={"PATH": "/usr/bin:/bin", **env}, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"{exe} failed:\n{out.stderr[-2000:]}")
    for line in out.stderr.splitlines():
        if "Collected :" in line:
            return int(line.split(":")[-1].strip())
    raise SystemExit(f"callgrind gave no count for {exe}:\n{out.stderr[-2000:]}")


def per_iteration(exe: str, env: dict[str, str], n: int, profile: str = "/dev/null") -> tuple[int, int, float]:
    """Instructions of `n` iterations (`ODM_BENCH_N=n`, profiled into `profile`) and of none, and the difference per
    iteration: start-up cancels out."""
    full = instructions(exe, {**env, "ODM_BENCH_N": str(n)}, profile)
    empty = instructions(exe, {**env, "ODM_BENCH_N": "0"})
    return full, empty, (full - empty) / n


def count_sides(sides: dict[str, tuple[str, dict[str, str]]], n: int, unit: str,
                profiles: str | None = None) -> dict[str, float]:
    """Instructions per `unit` of each side (`name: (executable, env)`), each printed as it is counted; with
    `profiles`, each side's counted run leaves its callgrind profile there as `callgrind.<name>`."""
    width = max(len(side) for side in sides) + 2
    per: dict[str, float] = {}
    for side, (exe, env) in sides.items():
        profile = "/dev/null"
        if profiles:
            pathlib.Path(profiles).mkdir(parents=True, exist_ok=True)
            profile = str(pathlib.Path(profiles) / f"callgrind.{side}")
        full, empty, per[side] = per_iteration(exe, env, n, profile)
        print(f"{side:<{width}} {full:>13,} instructions for {n} {unit}s, {empty:>11,} for none: "
              f"{per[side]:,.0f} per {unit}")
    return per
