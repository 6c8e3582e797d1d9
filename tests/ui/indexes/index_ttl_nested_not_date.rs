// A TTL index on a nested field: the embedded field's type is checked by a const assertion.
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
#[odm(index(keys = "line.name", ttl = 3600))]
struct Order {
    #[serde(rename = "ln")]
    line: Item,
}

fn main() {}
