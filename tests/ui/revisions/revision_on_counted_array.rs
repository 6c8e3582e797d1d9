// `revision-field`: a counted array is not an integer.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_cart")]
struct Cart {
    #[serde(rename = "it")]
    #[odm(max_items = 10, counter = "item_count", revision)]
    items: Vec<i64>,
    #[serde(rename = "ic")]
    item_count: i32,
}

fn main() {}
