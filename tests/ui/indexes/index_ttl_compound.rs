// A TTL index has exactly one key.
use odm::bson::DateTime;
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header")]
#[odm(index(keys = "merchant, created_at", ttl = 3600))]
struct Order {
    #[serde(rename = "mi")]
    merchant: String,
    #[serde(rename = "st")]
    status: String,
    #[serde(rename = "am")]
    amount: i64,
    #[serde(rename = "ca")]
    created_at: DateTime,
}

fn main() {}
