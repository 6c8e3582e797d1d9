// MongoDB refuses arrays in a shard key (its index cannot be multikey): shard on scalar fields.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header", shard_key = "tags", index(keys = "tags"))]
struct Order {
    #[serde(rename = "tg")]
    #[odm(max_items = 10)]
    tags: Vec<String>,
}

fn main() {}
