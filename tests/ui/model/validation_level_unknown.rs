// `validation_level` is one of the server's levels.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header", validation_level = "strong")]
struct Order {
    #[serde(rename = "n")]
    number: i64,
}

fn main() {}
