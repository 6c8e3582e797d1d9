// `name-collection`: a model names its collection.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(db = "shop")]
struct Order {
    #[serde(rename = "n")]
    number: i64,
}

fn main() {}
