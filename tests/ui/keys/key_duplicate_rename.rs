// `key-unique`: keys are unique within a document, after `rename`.
#![allow(unreachable_patterns)] // serde's own warning about the repeated key in its `Deserialize` match
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_item")]
struct Item {
    #[serde(rename = "p")]
    price: i64,
    #[serde(rename = "p")]
    points: i32,
}

fn main() {}
