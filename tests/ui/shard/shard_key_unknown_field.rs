// Shard key fields are Rust fields of the model; the message lists them.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header", shard_key = "regoin", index(keys = "region"))]
struct Order {
    #[serde(rename = "rg")]
    region: String,
    #[serde(rename = "am")]
    amount: i64,
}

fn main() {}
