// Default names are `idx_` and the stored keys: `merchant` and `-merchant` both get `idx_mi`.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header")]
#[odm(index(keys = "merchant"))]
#[odm(index(keys = "-merchant"))]
struct Order {
    #[serde(rename = "mi")]
    merchant: String,
    #[serde(rename = "st")]
    status: String,
    #[serde(rename = "am")]
    amount: i64,
}

fn main() {}
