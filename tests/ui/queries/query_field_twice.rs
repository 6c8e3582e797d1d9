// A field has one role in a query: equality, sort or range.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header")]
#[odm(query(eq = "merchant", range = "amount, merchant"))]
struct Order {
    merchant: String,
    amount: i64,
}

fn main() {}
