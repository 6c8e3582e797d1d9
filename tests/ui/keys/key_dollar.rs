// `key-dollar`: keys do not start with `$` (operators).
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_item")]
struct Item {
    #[serde(rename = "$price")]
    price: i64,
}

fn main() {}
