// `max_len` bounds a string's length; it means nothing on an integer.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_item")]
struct Item {
    #[serde(rename = "q")]
    #[odm(max_len = 10)]
    quantity: i32,
}

fn main() {}
