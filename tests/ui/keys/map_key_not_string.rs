// `key-map`: map keys become document keys, so they are strings.
use odm::Model;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_price")]
struct Prices {
    #[serde(rename = "bq")]
    by_quantity: HashMap<i32, i64>,
}

fn main() {}
