// `max_indexes` is a ceiling too.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header")]
#[odm(max_indexes = 2)]
#[odm(index(keys = "merchant"))]
#[odm(index(keys = "status"))]
#[odm(index(keys = "amount"))]
struct Order {
    #[serde(rename = "mi")]
    merchant: String,
    #[serde(rename = "st")]
    status: String,
    #[serde(rename = "am")]
    amount: i64,
}

fn main() {}
