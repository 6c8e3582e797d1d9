// `name-case`: collection names are lowercase `[a-z0-9_]`.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_Header")]
struct Order {
    #[serde(rename = "n")]
    number: i64,
}

fn main() {}
