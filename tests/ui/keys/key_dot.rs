// `key-dot`: keys contain no `.` (path separator).
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_item")]
struct Item {
    #[serde(rename = "p.v")]
    price: i64,
}

fn main() {}
