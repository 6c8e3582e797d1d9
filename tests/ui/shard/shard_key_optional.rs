// `shard-key-required`: every document holds its shard key, never null: an `Option` field cannot be in it.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header", shard_key = "region", index(keys = "region"))]
struct Order {
    #[serde(rename = "rg", skip_serializing_if = "Option::is_none")]
    region: Option<String>,
    #[serde(rename = "am")]
    amount: i64,
}

fn main() {}
