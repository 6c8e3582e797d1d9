// A weight is an integer from 1 to 99999.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header")]
#[odm(index(keys = "title:text", weights = "title:0"))]
struct Order {
    #[serde(rename = "t")]
    title: String,
    #[serde(rename = "b")]
    body: String,
}

fn main() {}
