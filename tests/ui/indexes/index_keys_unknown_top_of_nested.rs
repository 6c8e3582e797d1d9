// A misspelt top-level field in a nested path: the suggestion keeps the nested part.
use odm::{Embedded, Model};
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
pub struct Item {
    #[serde(rename = "n")]
    name: String,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header")]
#[odm(index(keys = "merchant, itms.name"))]
struct Order {
    #[serde(rename = "mi")]
    merchant: String,
    #[serde(rename = "it")]
    #[odm(max_items = 30)]
    items: Vec<Item>,
}

fn main() {}
