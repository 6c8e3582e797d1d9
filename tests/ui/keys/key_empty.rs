// `key-empty`: keys are not empty.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_item")]
struct Item {
    #[serde(rename = "")]
    price: i64,
}

fn main() {}
