//! Decodes the codec bench's sample order `ODM_BENCH_N` times (default 20,000) with bson and serde alone, built
//! outside odm's workspace: the baseline of odm's decode, counted in instructions under callgrind by
//! `scripts/decode_cost.py`. The struct, its keys and its values are the codec bench's `SerdeOrder`.

// The shared struct names bson as `crate::bson`, as the benches inside the workspace re-export it from odm.
extern crate bson;

#[path = "../../sample/serde_order.rs"]
mod serde_order;

use bson::RawDocumentBuf;
use serde_order::SerdeOrder;
use std::hint::black_box;

fn main() {
    let n: usize = std::env::var("ODM_BENCH_N").ok().and_then(|n| n.parse().ok()).unwrap_or(20_000);
    let order = SerdeOrder::sample();
    let raw: RawDocumentBuf = bson::serialize_to_raw_document_buf(&order).expect("encode");
    for _ in 0..n {
        drop(black_box(bson::deserialize_from_slice::<SerdeOrder>(black_box(raw.as_bytes())).expect("decode")));
    }
}
