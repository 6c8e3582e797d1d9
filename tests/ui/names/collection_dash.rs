// `name-case`: `-` is not allowed in collection names.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order-header")]
struct Order {
    #[serde(rename = "n")]
    number: i64,
}

fn main() {}
