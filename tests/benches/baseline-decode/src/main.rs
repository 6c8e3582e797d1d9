//! Decodes the codec bench's sample order `ODM_BENCH_N` times (default 20,000) with bson and serde alone, built
//! outside odm's workspace: the baseline of odm's decode, counted in instructions under callgrind by
//! `scripts/decode_cost.py`. The struct, its keys and its values are the codec bench's `SerdeOrder`; with
//! `ODM_BENCH_ROW` set, the view bench's row (`SerdeWideRow`, three fields of a projected document).

// The shared struct names bson as `crate::bson`, as the benches inside the workspace re-export it from odm.
extern crate bson;

#[path = "../../sample/serde_order.rs"]
mod serde_order;
#[path = "../../sample/wide_row.rs"]
mod wide_row;

use bson::RawDocumentBuf;
use serde_order::SerdeOrder;
use std::hint::black_box;
use wide_row::SerdeWideRow;

fn main() {
    let n: usize = std::env::var("ODM_BENCH_N").ok().and_then(|n| n.parse().ok()).unwrap_or(20_000);
    // `ODM_BENCH_ROW=1`: the view bench's row (three fields of a projected document) instead of the order.
    if std::env::var_os("ODM_BENCH_ROW").is_some() {
        let raw: RawDocumentBuf = bson::serialize_to_raw_document_buf(&wide_row::projected()).expect("encode");
        for _ in 0..n {
            drop(black_box(bson::deserialize_from_slice::<SerdeWideRow>(black_box(raw.as_bytes())).expect("decode")));
        }
        return;
    }
    let order = SerdeOrder::sample();
    let raw: RawDocumentBuf = bson::serialize_to_raw_document_buf(&order).expect("encode");
    for _ in 0..n {
        drop(black_box(bson::deserialize_from_slice::<SerdeOrder>(black_box(raw.as_bytes())).expect("decode")));
    }
}
