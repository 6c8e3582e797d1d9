// A nested path in a partial filter is resolved like a nested key.
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
#[odm(index(keys = "merchant", partial = "line.nme exists"))]
struct Order {
    #[serde(rename = "mi")]
    merchant: String,
    #[serde(rename = "ln")]
    line: Item,
}

fn main() {}
