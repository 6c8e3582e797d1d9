// `name-case`: the suggested name follows the module convention too.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(module = "shop", collection = "OrderHeader")]
struct Order {
    #[serde(rename = "n")]
    number: i64,
}

fn main() {}
