// Two indexes cannot share a name.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header")]
#[odm(index(keys = "merchant", name = "idx_shop"))]
#[odm(index(keys = "status", name = "idx_shop"))]
struct Order {
    #[serde(rename = "mi")]
    merchant: String,
    #[serde(rename = "st")]
    status: String,
    #[serde(rename = "am")]
    amount: i64,
}

fn main() {}
