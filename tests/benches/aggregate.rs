//! Building a five-stage typed pipeline against the same pipeline written with `doc!`, in the same run (target
//! ≤ 1.2×): `$match` (status and a minimum amount), `$sort`, `$group` (key, `$sum`, count), `$sort`, `$limit`.
//! The typed side includes everything the builder does before sending: encoding values by their types, checking
//! that the group fills its output type, and the stage-order pass (`into_stages`).
//!
//! Before criterion's groups, `main` prints the ratio measured in alternating batches (steadier than two separate
//! criterion runs on a shared machine). Run with `cargo bench -p odm-tests --bench aggregate` (no server needed).
//! `ODM_BENCH_LOOP=typed|doc [ODM_BENCH_N=20000]` runs one side in a loop, for an instruction count under
//! `valgrind --tool=callgrind`.
//!
//! A second pipeline joins: `$match` (two conditions), `$group` (key, `$sum`, count), `$lookup` narrowed to the
//! customer's name, `$unwind`, `$project`; its `doc!` side is `sample/doc_pipeline.rs`, which the statement baseline
//! outside the workspace builds too. `ODM_BENCH_LOOP=typed_join|doc_join` runs one of its sides
//! (`python3 scripts/statement_cost.py` counts them against that baseline).

// The joined pipeline's `doc!` side, from the source the baseline built outside the workspace also compiles.
#[path = "sample/doc_pipeline.rs"]
mod doc_pipeline;

#[path = "../support/interleaved.rs"]
mod interleaved;

use criterion::{criterion_group, Criterion};
use interleaved::{interleaved, Interleaved};
use odm::aggregate::{self, Pipeline};
use odm::bson::{self, doc, oid::ObjectId, Document};
use odm::{Embedded, Model};
use serde::{Deserialize, Serialize};
use std::hint::black_box;

#[derive(Model, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[odm(collection = "bench_order")]
struct Order {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "cu")]
    customer: ObjectId,
    #[serde(rename = "st")]
    status: String,
    #[serde(rename = "tot")]
    total: i64,
}

/// Revenue per customer.
#[derive(Embedded, Serialize, Deserialize, Clone, Debug, PartialEq)]
struct PerCustomer {
    #[serde(rename = "_id")]
    customer: ObjectId,
    #[serde(rename = "rv")]
    revenue: i64,
    #[serde(rename = "n")]
    orders: i64,
}

/// A customer, in its own collection.
#[derive(Model, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[odm(collection = "crm_customer")]
struct Customer {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "nm")]
    name: String,
    #[serde(rename = "em")]
    email: String,
}

/// A customer's name, all the join reads of a customer.
#[derive(Embedded, Serialize, Deserialize, Clone, Debug, PartialEq)]
struct Name {
    #[serde(rename = "nm")]
    name: String,
}

/// Revenue per customer with the customer's name joined.
#[derive(Embedded, Serialize, Deserialize, Clone, Debug, PartialEq)]
struct WithName {
    #[serde(rename = "_id")]
    customer: ObjectId,
    #[serde(rename = "rv")]
    revenue: i64,
    #[serde(rename = "n")]
    orders: i64,
    #[serde(rename = "c")]
    #[odm(max_items = 1)]
    names: Vec<Name>,
}

/// One row per customer after the unwind.
#[derive(Embedded, Serialize, Deserialize, Clone, Debug, PartialEq)]
struct Unwound {
    #[serde(rename = "_id")]
    customer: ObjectId,
    #[serde(rename = "rv")]
    revenue: i64,
    #[serde(rename = "n")]
    orders: i64,
    #[serde(rename = "c")]
    name: Name,
}

/// The report.
#[derive(Embedded, Serialize, Deserialize, Clone, Debug, PartialEq)]
struct Report {
    #[serde(rename = "rv")]
    revenue: i64,
    #[serde(rename = "n")]
    orders: i64,
    #[serde(rename = "nm")]
    name: String,
}

/// The typed joined pipeline.
fn typed_join(min: i64) -> Vec<Document> {
    let f = Order::fields();
    let (per, joined) = (aggregate::fields::<PerCustomer>(), aggregate::fields::<WithName>());
    let (row, out) = (aggregate::fields::<Unwound>(), aggregate::fields::<Report>());
    Pipeline::<Order>::new()
        .filter(f.status().eq("paid").and(f.total().gte(min)))
        .group(|g| g.key(per.customer(), f.customer()).sum(per.revenue(), f.total()).count(per.orders()))
        .lookup(per.customer(), Customer::fields().id(), joined.names())
        .unwind(joined.names(), row.name())
        .project(|p| {
            p.field(out.revenue(), row.revenue()).field(out.orders(), row.orders()).field(out.name(), row.name().name())
        })
        .into_stages()
        .expect("stages")
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
    assert_eq!(typed_join(100), doc_pipeline::doc_pipeline(100), "both sides build the same joined stages");
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
    let mut g = c.benchmark_group("joined_pipeline");
    g.bench_function("typed", |b| b.iter(|| typed_join(black_box(100))));
    g.bench_function("doc", |b| b.iter(|| doc_pipeline::doc_pipeline(black_box(100))));
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
                "typed_join" => drop(black_box(typed_join(black_box(100)))),
                "doc_join" => drop(black_box(doc_pipeline::doc_pipeline(black_box(100)))),
                other => panic!("ODM_BENCH_LOOP is `typed`, `doc`, `typed_join` or `doc_join`, not `{other}`"),
            }
        }
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
