// A path belongs to the model it was taken from: an `Update<Order>` takes only `Order::fields()` paths.
use odm::{Model, Update};
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header")]
struct Order {
    #[serde(rename = "s")]
    status: String,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_refund")]
struct Refund {
    #[serde(rename = "s")]
    status: String,
}

fn main() {
    let _ = Update::<Order>::new().set(Refund::fields().status(), "open".to_owned());
}
