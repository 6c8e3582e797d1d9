// The document root is not a field path: filters name one of its fields.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header")]
struct Order {
    #[serde(rename = "s")]
    status: String,
}

fn main() {
    let _ = Order::fields().eq(Order { status: "open".to_owned() });
}
