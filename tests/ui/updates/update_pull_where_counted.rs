// `$pull` with a condition removes an unknown number of elements, so a counted array's counter could not follow.
use odm::{Embedded, Model, Update};
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
struct Line {
    #[serde(rename = "p")]
    price: i64,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header")]
struct Order {
    #[serde(rename = "it")]
    #[odm(max_items = 100, counter = "item_count")]
    items: Vec<Line>,
    #[serde(rename = "ic")]
    item_count: i32,
}

fn main() {
    let _ = Update::<Order>::new().pull_where(Order::fields().items(), |l| l.price().lt(0));
}
