// `weights` names the text keys of its index.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header")]
#[odm(index(keys = "title:text", weights = "body:5"))]
struct Order {
    #[serde(rename = "t")]
    title: String,
    #[serde(rename = "b")]
    body: String,
}

fn main() {}
