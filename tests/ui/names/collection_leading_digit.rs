// `name-case`: a collection name starts with a lowercase letter.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "2024_orders")]
struct Order {
    #[serde(rename = "n")]
    number: i64,
}

fn main() {}
