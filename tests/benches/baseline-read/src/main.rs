//! Reads `ODM_BENCH_N` sample orders (default 20,000) from `MONGODB_URI` with the MongoDB driver alone, each decoded
//! into serde's `SerdeOrder`, built outside odm's workspace: the baseline of odm's typed read, counted in instructions
//! under callgrind by `scripts/read_cost.py` (which seeds the collection). With `ODM_BENCH_N=0` it runs the same
//! steps on a read that matches nothing, so that start-up and the connection cancel out.

// The shared struct names bson as `crate::bson`, as the benches inside the workspace re-export it from odm.
extern crate bson;

// Shared with the decode baseline, which also builds the sample itself.
#[allow(dead_code)]
#[path = "../../sample/serde_order.rs"]
mod serde_order;

use bson::doc;
use futures_util::TryStreamExt;
use serde_order::SerdeOrder;
use std::hint::black_box;

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let n: i64 = std::env::var("ODM_BENCH_N").ok().and_then(|n| n.parse().ok()).unwrap_or(20_000);
    let uri = std::env::var("MONGODB_URI").expect("MONGODB_URI: the server read_cost.py seeded");
    let client = mongodb::Client::with_uri_str(uri).await.expect("client");
    let coll = client.database("bench_read").collection::<SerdeOrder>("order_header");
    // No order has the all-zero id: the read of none sends the same commands and returns nothing.
    let filter = if n == 0 { doc! { "_id": bson::oid::ObjectId::from_bytes([0; 12]) } } else { doc! {} };
    let all: Vec<SerdeOrder> = coll.find(filter).limit(n.max(1)).await.expect("find").try_collect().await.expect("read");
    assert_eq!(all.len() as i64, n, "the collection holds at least ODM_BENCH_N orders");
    drop(black_box(all));
    client.shutdown().await;
}
