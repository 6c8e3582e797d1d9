// `default_language` belongs to a text index.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header")]
#[odm(index(keys = "title", default_language = "english"))]
struct Order {
    #[serde(rename = "t")]
    title: String,
    #[serde(rename = "b")]
    body: String,
}

fn main() {}
