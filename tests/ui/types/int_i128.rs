// `type-faithful`: BSON has no 128-bit integer.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_item")]
struct Item {
    #[serde(rename = "s")]
    stock: i128,
}

fn main() {}
