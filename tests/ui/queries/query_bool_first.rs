use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header")]
#[odm(query(eq = "paid, merchant", range = "amount"))]
struct Order {
    paid: bool,
    merchant: String,
    amount: i64,
}

fn main() {}
