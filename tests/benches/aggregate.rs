//! Building a five-stage typed pipeline against the same pipeline written with `doc!`, in the same run (target
//! ≤ 1.2×): `$match` (status and a minimum amount), `$sort`, `$group` (key, `$sum`, count), `$sort`, `$limit`.
//! The typed side includes everything the builder does before sending: encoding values by their types, checking
//! that the group fills its output type, and the stage-order pass (`into_stages`).
//!
//! Before criterion's groups, `main` prints the ratio measured in alternating batches (steadier than two separate
//! criterion runs on a shared machine). Run with `cargo bench -p odm-tests --bench aggregate` (no server needed).
//! `ODM_BENCH_LOOP=typed|doc [ODM_BENCH_N=20000]` runs one side in a loop, for an instruction count under
//! `valgrind --tool=callgrind`.

#[path = "../support/interleaved.rs"]
mod interleaved;

use criterion::{criterion_group, Criterion};
use interleaved::{interleaved, Interleaved};
use odm::aggregate::{self, Pipeline};
use odm::bson::{doc, oid::ObjectId, Document};
use odm::{Embedded, Model};
use serde::{Deserialize, Serialize};
use std::hint::black_box;

#[derive(Model, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[odm(collection = "bench_order")]
struct Order {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "cu")]
    customer: String,
    #[serde(rename = "st")]
    status: String,
    #[serde(rename = "tot")]
    total: i64,
}

/// Revenue per customer.
#[derive(Embedded, Serialize, Deserialize, Clone, Debug, PartialEq)]
struct PerCustomer {
    #[serde(rename = "_id")]
    customer: String,
    #[serde(rename = "rv")]
    revenue: i64,
    #[serde(rename = "n")]
    orders: i64,
}

/// The typed pipeline.
fn typed(min: i64) -> Vec<Document> {
    let (f, out) = (Order::fields(), aggregate::fields::<PerCustomer>());
    Pipeline::<Order>::new()
        .filter(f.status().eq("paid").and(f.total().gte(min)))
        .sort(f.total().desc())
        .group(|g| g.key(out.customer(), f.customer()).sum(out.revenue(), f.total()).count(out.orders()))
        .sort(out.revenue().desc())
        .limit(10)
        .into_stages()
        .expect("stages")
}

/// The same stages with `doc!`.
fn by_hand(min: i64) -> Vec<Document> {
    vec![
        doc! { "$match": { "st": "paid", "tot": { "$gte": min } } },
        doc! { "$sort": { "tot": -1 } },
        doc! { "$group": { "_id": "$cu", "rv": { "$sum": "$tot" }, "n": { "$sum": 1 } } },
        doc! { "$sort": { "rv": -1 } },
        doc! { "$limit": 10_i64 },
    ]
}

const ROUNDS: usize = 21;

fn bench(c: &mut Criterion) {
    assert_eq!(typed(100), by_hand(100), "both sides build the same stages");
    let Interleaved { a_ns: t, b_ns: d, ratio } = interleaved(
        5_000,
        ROUNDS,
        || drop(black_box(typed(black_box(100)))),
        || drop(black_box(by_hand(black_box(100)))),
    );
    println!("five_stage_pipeline interleaved: typed {t:.0} ns, doc! {d:.0} ns, ratio {ratio:.2}× (target ≤ 1.2×)");
    let mut g = c.benchmark_group("five_stage_pipeline");
    g.bench_function("typed", |b| b.iter(|| typed(black_box(100))));
    g.bench_function("doc", |b| b.iter(|| by_hand(black_box(100))));
    g.finish();
}

criterion_group!(benches, bench);

fn main() {
    if let Ok(side) = std::env::var("ODM_BENCH_LOOP") {
        let n: usize = std::env::var("ODM_BENCH_N").ok().and_then(|n| n.parse().ok()).unwrap_or(20_000);
        for _ in 0..n {
            match side.as_str() {
                "typed" => drop(black_box(typed(black_box(100)))),
                "doc" => drop(black_box(by_hand(black_box(100)))),
                other => panic!("ODM_BENCH_LOOP is `typed` or `doc`, not `{other}`"),
            }
        }
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
