// A path belongs to the model it was taken from: a `Filter<Order>` is built from `Order::fields()` paths only.
use odm::{Filter, Model};
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
    let _: Filter<Order> = Refund::fields().status().eq("open".to_owned());
}
