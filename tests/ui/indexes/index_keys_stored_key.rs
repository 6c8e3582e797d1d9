// Index keys name Rust fields; a stored key written instead gets its field as the fix.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header")]
#[odm(index(keys = "merchant, -st"))]
struct Order {
    #[serde(rename = "mi")]
    merchant: String,
    #[serde(rename = "st")]
    status: String,
}

fn main() {}
