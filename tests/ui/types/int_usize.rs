// `type-faithful`: `usize` is a platform-width unsigned integer.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_item")]
struct Item {
    #[serde(rename = "s")]
    stock: usize,
}

fn main() {}
