// `key-nul`: keys contain no NUL character.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_item")]
struct Item {
    #[serde(rename = "a\0b")]
    price: i64,
}

fn main() {}
