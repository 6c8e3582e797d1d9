// `revision-field`: a shard key never changes once written, so it cannot count writes.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_cart", shard_key = "shard", index(keys = "shard"))]
struct Cart {
    #[serde(rename = "s")]
    #[odm(revision)]
    shard: i64,
}

fn main() {}
