// `revision-field`: a counter changes with its array's length, so it cannot count writes too.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_cart")]
struct Cart {
    #[serde(rename = "it")]
    #[odm(max_items = 10, counter = "item_count")]
    items: Vec<i64>,
    #[serde(rename = "ic")]
    #[odm(revision)]
    item_count: i32,
}

fn main() {}
