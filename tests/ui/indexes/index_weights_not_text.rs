// `weights` belongs to a text index.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header")]
#[odm(index(keys = "title", weights = "title:10"))]
struct Order {
    #[serde(rename = "t")]
    title: String,
    #[serde(rename = "b")]
    body: String,
}

fn main() {}
