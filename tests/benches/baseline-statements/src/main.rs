//! Builds the benches' statements `ODM_BENCH_N` times (default 20,000) with `doc!` and serde alone, built outside
//! odm's workspace: the baseline of odm's typed update, filter and pipeline, counted in instructions under callgrind
//! by `scripts/statement_cost.py`. `ODM_BENCH_LOOP=update` builds the update with its filter, `filter` the filter
//! alone, from the same source as the update bench's `doc!` side (`sample/doc_statements.rs`); `pipeline` the
//! aggregate bench's joined pipeline (`sample/doc_pipeline.rs`).

// The shared source names bson as `crate::bson`, as the benches inside the workspace re-export it from odm.
extern crate bson;

#[path = "../../sample/doc_statements.rs"]
mod doc_statements;
#[path = "../../sample/doc_pipeline.rs"]
mod doc_pipeline;

use bson::oid::ObjectId;
use doc_statements::{doc_filter, doc_line, doc_update};
use std::hint::black_box;

fn main() {
    let n: usize = std::env::var("ODM_BENCH_N").ok().and_then(|n| n.parse().ok()).unwrap_or(20_000);
    let side = std::env::var("ODM_BENCH_LOOP").unwrap_or_default();
    let (id, item) = (ObjectId::new(), doc_line(7));
    for _ in 0..n {
        match side.as_str() {
            "update" => drop(black_box(doc_update(id, black_box(&item).clone()))),
            "filter" => drop(black_box(doc_filter(black_box(id)))),
            "pipeline" => drop(black_box(doc_pipeline::doc_pipeline(black_box(100)))),
            other => panic!("ODM_BENCH_LOOP is `update`, `filter` or `pipeline`, not `{other}`"),
        }
    }
}
