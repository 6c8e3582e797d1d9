use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header")]
#[odm(query(eq = "merchant", sort = "-created"))]
struct Order {
    merchant: String,
    amount: i64,
}

fn main() {}
