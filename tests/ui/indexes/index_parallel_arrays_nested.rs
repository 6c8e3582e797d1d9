// Parallel arrays through a nested array field: caught by a const assertion on the embedded field's type.
use odm::{Embedded, Model};
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
pub struct Item {
    #[serde(rename = "n")]
    name: String,
    #[serde(rename = "q")]
    quantity: i32,
}

#[derive(Embedded, Serialize, Deserialize)]
pub struct Point {
    #[serde(rename = "type")]
    #[odm(not_a_date)]
    kind: String,
    #[serde(rename = "c")]
    #[odm(max_items = 2)]
    coordinates: Vec<f64>,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header")]
#[odm(index(keys = "tags, location.coordinates"))]
struct Order {
    #[serde(rename = "tg")]
    #[odm(max_items = 10)]
    tags: Vec<String>,
    #[serde(rename = "it")]
    #[odm(max_items = 30)]
    items: Vec<Item>,
    #[serde(rename = "l")]
    location: Point,
}

fn main() {}
