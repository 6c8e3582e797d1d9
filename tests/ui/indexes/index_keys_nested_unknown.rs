// A nested key names a field of the embedded type (resolved at compile time through the table its derive generates);
// an unknown one gets the closest field, by Rust name or by stored key, as the fix.
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
#[odm(index(keys = "items.nme"))]
#[odm(index(keys = "merchant, items.q"))]
struct Order {
    #[serde(rename = "mi")]
    merchant: String,
    #[serde(rename = "it")]
    #[odm(max_items = 30)]
    items: Vec<Item>,
}

fn main() {}
