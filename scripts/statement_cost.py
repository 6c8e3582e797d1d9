#!/usr/bin/env python3
"""Instructions per typed statement against the same documents written with `doc!`: the update bench's update and
filter (part 1, tests/benches/update.rs) and the aggregate bench's joined pipeline (tests/benches/aggregate.rs).

Builds both benches (`cargo bench --no-run`), then counts instructions under valgrind's callgrind for N iterations of
each side and for none, so that start-up cancels out:

    typed          `set` status, `inc` total, `push` a line (its counter follows) + `f.id().eq(id)`, built
                   (ODM_BENCH_LOOP=typed)
    doc            the same two documents with `doc!`, the line through `bson::serialize_to_bson` (ODM_BENCH_LOOP=doc)
    typed_filter   `Order::fields().id().eq(id).into_document()` alone (ODM_BENCH_LOOP=typed_filter)
    doc_filter     `doc! { "_id": id }` (ODM_BENCH_LOOP=doc_filter)
    baseline       the `doc!` update and filter from the same source (tests/benches/sample/doc_statements.rs), built
                   outside the workspace (tests/benches/baseline-statements: bson and serde alone, its own lock file)
    baseline_filter  the `doc!` filter alone, built there
    typed_join     the joined pipeline: `$match` (two conditions), `$group` (key, `$sum`, count), `$lookup` narrowed
                   to the customer's name, `$unwind`, `$project`, through `into_stages` (aggregate bench,
                   ODM_BENCH_LOOP=typed_join)
    doc_join       the same stages with `doc!` (tests/benches/sample/doc_pipeline.rs; ODM_BENCH_LOOP=doc_join)
    baseline_pipeline  that source built outside the workspace

Both sides of each pair clone the line (update) or copy the id (filter) the same way inside the loop. The same
`doc!` source costs up to a few percent more or less in different binaries (what the compiler inlines where), so the
typed sides are compared with both: the `doc!` in the same binary, and the one built outside the workspace.

Usage: python3 scripts/statement_cost.py [--n 20000] [--profiles DIR]
(needs valgrind; the release build lands under target/; with --profiles, each side's counted run leaves its
callgrind profile in DIR/callgrind.<side>, for `callgrind_annotate`)
"""

import argparse
import subprocess

from callgrind import ROOT, bench_executable, count_sides

BASELINE = ROOT / "tests" / "benches" / "baseline-statements"

PAIRS = (("typed", "doc"), ("typed_filter", "doc_filter"), ("typed_join", "doc_join"))
OUTSIDE = ("baseline", "baseline_filter", "baseline_pipeline")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=20_000, help="iterations per counted run (default 20000)")
    parser.add_argument("--profiles", help="directory to keep each side's callgrind profile in")
    args = parser.parse_args()
    exe = bench_executable("update")
    aggregate = bench_executable("aggregate")
    target = ROOT / "target" / "baseline-statements"
    subprocess.run(["cargo", "build", "--release", "--locked", "--target-dir", str(target)], cwd=BASELINE, check=True)
    outside = str(target / "release" / "baseline-statements")
    sides = {side: (exe, {"ODM_BENCH_LOOP": side}) for pair in PAIRS[:2] for side in pair}
    sides.update({side: (aggregate, {"ODM_BENCH_LOOP": side}) for side in PAIRS[2]})
    sides["baseline"] = (outside, {"ODM_BENCH_LOOP": "update"})
    sides["baseline_filter"] = (outside, {"ODM_BENCH_LOOP": "filter"})
    sides["baseline_pipeline"] = (outside, {"ODM_BENCH_LOOP": "pipeline"})
    per = count_sides(sides, args.n, "iteration", args.profiles)
    for (typed, doc), outside_side in zip(PAIRS, OUTSIDE):
        print(f"statement_cost {typed:<13} {per[typed]:>7,.0f} against {doc:<10} {per[doc]:>7,.0f} instructions per "
              f"iteration: {per[typed] / per[doc]:.3f}x; against the doc! built outside the workspace "
              f"{per[outside_side]:>7,.0f}: {per[typed] / per[outside_side]:.3f}x")


if __name__ == "__main__":
    main()
