// `name-case`: a CamelCase collection name gets its snake_case spelling as the fix.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "OrderHeader")]
struct Order {
    #[serde(rename = "n")]
    number: i64,
}

fn main() {}
