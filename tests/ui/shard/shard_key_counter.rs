// A counter changes with every push or pop of its array, and a shard key never changes: it cannot be in the key.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header", shard_key = "item_count", index(keys = "item_count"))]
struct Order {
    #[serde(rename = "it")]
    #[odm(max_items = 100, counter = "item_count")]
    items: Vec<i64>,
    #[serde(rename = "ic")]
    item_count: i32,
}

fn main() {}
