//! Encode/decode cost of a derived model against the same struct with only serde derives, in the same run
//! (target ≤ 1.02×), and the stored size of the sample order with short keys against full field names.
//!
//! Run with `cargo bench -p odm-tests --bench codec` (no server needed). Instruction counts, which machine noise
//! cannot move: build with `--no-run`, then run the binary under `valgrind --tool=callgrind` with
//! `ODM_BENCH_LOOP` set to `odm_encode`, `serde_encode`, `odm_decode` and `serde_decode` (see `instruction_loop`).
//! The serde side here is built inside odm's workspace, with the bson features odm's build turns on;
//! `scripts/decode_cost.py` also counts the same decode built outside it (`baseline-decode`, a plain driver build).

mod sample;

use criterion::{criterion_group, Criterion};
use odm::bson::{self, oid::ObjectId, DateTime, RawDocumentBuf};
use sample::{order, serde_twin, SerdeOrder};
use serde::Serialize;
use std::hint::black_box;

/// The sample order with full field names, serde only (the long-key storage comparison).
#[derive(Serialize, Clone)]
struct PlainItem {
    name: String,
    unit_price: i64,
    quantity: i32,
}

#[derive(Serialize, Clone)]
struct PlainOrder {
    #[serde(rename = "_id")]
    id: ObjectId,
    order_number: String,
    freight: i64,
    total_price: i64,
    order_status: String,
    created_at: DateTime,
    order_items: Vec<PlainItem>,
    item_count: i32,
}

fn bench(c: &mut Criterion) {
    let o = order();
    let twin = serde_twin(&o);
    let plain = PlainOrder {
        id: o.id,
        order_number: o.number.clone(),
        freight: o.freight,
        total_price: o.total,
        order_status: o.status.clone(),
        created_at: o.created_at,
        order_items: o
            .items
            .iter()
            .map(|i| PlainItem { name: i.name.clone(), unit_price: i.unit_price, quantity: i.quantity })
            .collect(),
        item_count: o.item_count,
    };
    let short = odm::codec::encode(&o).expect("encode").into_bytes().len();
    let long = bson::serialize_to_raw_document_buf(&plain).expect("encode").into_bytes().len();
    println!(
        "stored size of the sample order: short keys {short} bytes, full names {long} bytes ({:.0}% smaller)",
        100.0 * (1.0 - short as f64 / long as f64)
    );

    let mut g = c.benchmark_group("encode");
    g.bench_function("odm_encode_derived", |b| b.iter(|| odm::codec::encode(black_box(&o)).expect("encode")));
    g.bench_function("serde_bson_baseline", |b| {
        b.iter(|| bson::serialize_to_raw_document_buf(black_box(&twin)).expect("encode"))
    });
    g.finish();

    let raw: RawDocumentBuf = odm::codec::encode(&o).expect("encode");
    let mut g = c.benchmark_group("decode");
    g.bench_function("odm_decode_derived", |b| {
        b.iter(|| odm::codec::decode::<sample::Order>(black_box(&raw)).expect("decode"))
    });
    g.bench_function("serde_bson_baseline", |b| {
        b.iter(|| bson::deserialize_from_slice::<SerdeOrder>(black_box(raw.as_bytes())).expect("decode"))
    });
    g.finish();
}

/// `ODM_BENCH_LOOP=odm_encode|serde_encode|odm_decode|serde_decode|view_decode|serde_view_decode [ODM_BENCH_N=20000]`:
/// runs one side in a loop
/// and exits, for `valgrind --tool=callgrind target/release/deps/codec-<hash>`; compare the totals.
fn instruction_loop(side: &str) {
    let n: usize = std::env::var("ODM_BENCH_N").ok().and_then(|n| n.parse().ok()).unwrap_or(20_000);
    let o = order();
    let twin = serde_twin(&o);
    let raw: RawDocumentBuf = odm::codec::encode(&o).expect("encode");
    let row = bson::serialize_to_raw_document_buf(&sample::wide_row::projected()).expect("encode");
    for _ in 0..n {
        match side {
            "odm_encode" => drop(black_box(odm::codec::encode(black_box(&o)).expect("encode"))),
            "serde_encode" => drop(black_box(bson::serialize_to_raw_document_buf(black_box(&twin)).expect("encode"))),
            "odm_decode" => drop(black_box(odm::codec::decode::<sample::Order>(black_box(&raw)).expect("decode"))),
            "serde_decode" => {
                drop(black_box(bson::deserialize_from_slice::<SerdeOrder>(black_box(raw.as_bytes())).expect("decode")))
            }
            "view_decode" => drop(black_box(
                odm::codec::decode_view::<sample::wide::Wide, sample::wide::WideRow>(black_box(&row)).expect("decode"),
            )),
            "serde_view_decode" => drop(black_box(
                bson::deserialize_from_slice::<sample::wide_row::SerdeWideRow>(black_box(row.as_bytes()))
                    .expect("decode"),
            )),
            other => panic!(
                "ODM_BENCH_LOOP is `odm_encode`, `serde_encode`, `odm_decode`, `serde_decode`, `view_decode` or \
                 `serde_view_decode`, not `{other}`"
            ),
        }
    }
}

criterion_group!(benches, bench);

fn main() {
    if let Ok(side) = std::env::var("ODM_BENCH_LOOP") {
        return instruction_loop(&side);
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
