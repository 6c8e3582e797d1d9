// `name-case`: database names are lowercase `[a-z0-9_]`.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(db = "Shop", collection = "order_header")]
struct Order {
    #[serde(rename = "n")]
    number: i64,
}

fn main() {}
