// A hashed index cannot hold arrays (seen in the tokens).
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header")]
#[odm(index(keys = "tags:hashed"))]
struct Order {
    #[serde(rename = "tg")]
    #[odm(max_items = 10)]
    tags: Vec<String>,
}

fn main() {}
