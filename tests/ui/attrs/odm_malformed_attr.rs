// An attribute that is not `key = value`, a flag or `key(...)` cannot be read: syn's message, with its rule.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "orders", "indexes")]
struct Order {
    #[serde(rename = "_id")]
    id: odm::bson::oid::ObjectId,
}

fn main() {}
