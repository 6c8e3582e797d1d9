// A nested path needs an embedded struct: a BSON date has no fields.
use odm::bson::DateTime;
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header")]
#[odm(index(keys = "created_at.day"))]
struct Order {
    #[serde(rename = "ca")]
    created_at: DateTime,
}

fn main() {}
