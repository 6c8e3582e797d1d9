// A hashed index cannot hold arrays: a nested array field is caught by a const assertion.
use odm::{Embedded, Model};
use serde::{Deserialize, Serialize};

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
#[odm(index(keys = "location.coordinates:hashed"))]
struct Order {
    #[serde(rename = "l")]
    location: Point,
}

fn main() {}
