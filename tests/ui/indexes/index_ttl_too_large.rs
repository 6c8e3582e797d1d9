// `expireAfterSeconds` is a 32-bit integer on the server.
use odm::bson::DateTime;
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header")]
#[odm(index(keys = "created_at", ttl = 3000000000))]
struct Order {
    #[serde(rename = "ca")]
    created_at: DateTime,
}

fn main() {}
