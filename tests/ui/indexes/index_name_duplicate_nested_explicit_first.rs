// An explicit name that a later index with a nested key gets by default (`items.name` is `idx_it_n`).
use odm::{Embedded, Model};
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
pub struct Item {
    #[serde(rename = "n")]
    name: String,
    #[serde(rename = "q")]
    quantity: i32,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header")]
#[odm(index(keys = "items.quantity", name = "idx_it_n"))]
#[odm(index(keys = "items.name"))]
struct Order {
    #[serde(rename = "it")]
    #[odm(max_items = 30)]
    items: Vec<Item>,
}

fn main() {}
