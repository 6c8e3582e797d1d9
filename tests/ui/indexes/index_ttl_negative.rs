// `ttl` is a number of seconds.
use odm::bson::DateTime;
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header")]
#[odm(index(keys = "created_at", ttl = -1))]
struct Order {
    #[serde(rename = "ca")]
    created_at: DateTime,
}

fn main() {}
