#!/usr/bin/env python3
"""Instructions per decode of the codec bench's sample order: odm's typed read against bson + serde built outside
odm's workspace (tests/benches/baseline-decode, its own workspace and lock file, so no feature odm's workspace turns
on reaches it).

Builds the codec bench (`cargo bench --no-run`) and the baseline crate twice (plain, as the MongoDB driver builds
bson, and with bson's `serde_path_to_error` feature, which any program got while odm's workspace turned it on), then
counts instructions under valgrind's callgrind for N decodes and for none, so that start-up cancels out:

    odm_decode     odm::decode::<Order> (the codec bench, ODM_BENCH_LOOP=odm_decode)
    serde_decode   bson::deserialize_from_slice::<SerdeOrder> inside odm's build (ODM_BENCH_LOOP=serde_decode)
    baseline       the same call and struct, built outside the workspace
    baseline+paths the same, with bson's path tracking on
    view_decode    odm::codec::decode_view::<Wide, WideRow>: a view of 3 of 50 fields, from the projected document
    serde_view     bson::deserialize_from_slice::<SerdeWideRow> (the same 3 fields, serde's derive) inside odm's build
    baseline_view  the same call and struct, built outside the workspace (ODM_BENCH_ROW=1)

Usage: python3 scripts/decode_cost.py [--n 20000]   (needs valgrind; release builds land under target/)
"""

import argparse
import subprocess

from callgrind import ROOT, bench_executable, count_sides

BASELINE = ROOT / "tests" / "benches" / "baseline-decode"


def baseline(features: list[str], name: str) -> str:
    """The baseline crate's executable, built with `features` in a target directory of its own."""
    target = ROOT / "target" / "baseline-decode" / name
    subprocess.run(["cargo", "build", "--release", "--locked", "--target-dir", str(target), *features],
                   cwd=BASELINE, check=True)
    return str(target / "release" / "baseline-decode")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=20_000, help="decodes per counted run (default 20000)")
    args = parser.parse_args()
    codec = bench_executable("codec")
    plain = baseline([], "plain")
    paths = baseline(["--features", "paths"], "paths")
    sides = {
        "odm_decode": (codec, {"ODM_BENCH_LOOP": "odm_decode"}),
        "serde_decode": (codec, {"ODM_BENCH_LOOP": "serde_decode"}),
        "baseline": (plain, {}),
        "baseline+paths": (paths, {}),
        "view_decode": (codec, {"ODM_BENCH_LOOP": "view_decode"}),
        "serde_view": (codec, {"ODM_BENCH_LOOP": "serde_view_decode"}),
        "baseline_view": (plain, {"ODM_BENCH_ROW": "1"}),
    }
    per = count_sides(sides, args.n, "decode")
    for side, count in per.items():
        base = per["baseline_view" if "view" in side else "baseline"]
        print(f"decode_cost {side:<15} {count:>8,.0f} instructions per decode, {count / base:.3f}x the baseline")


if __name__ == "__main__":
    main()
