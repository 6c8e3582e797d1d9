// `type-faithful`: BSON has no unsigned 64-bit integer.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_item")]
struct Item {
    #[serde(rename = "s")]
    stock: u64,
}

fn main() {}
