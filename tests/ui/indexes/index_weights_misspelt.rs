// A misspelt weight names the text key it most likely means.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header")]
#[odm(index(keys = "title:text, body:text", weights = "title:10, bdoy:2"))]
struct Order {
    #[serde(rename = "t")]
    title: String,
    #[serde(rename = "b")]
    body: String,
}

fn main() {}
