// `index-ceiling`: at most 3 indexes by default; the message says how to raise the ceiling.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header")]
#[odm(index(keys = "merchant"))]
#[odm(index(keys = "status"))]
#[odm(index(keys = "amount"))]
#[odm(index(keys = "merchant, -amount"))]
struct Order {
    #[serde(rename = "mi")]
    merchant: String,
    #[serde(rename = "st")]
    status: String,
    #[serde(rename = "am")]
    amount: i64,
}

fn main() {}
