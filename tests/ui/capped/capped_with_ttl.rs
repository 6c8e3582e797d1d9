// A capped collection cannot have a TTL index.
use odm::bson::DateTime;
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "log_order_event")]
#[odm(capped(size = 1048576))]
#[odm(index(keys = "created_at", ttl = 3600))]
struct OrderEvent {
    #[serde(rename = "m")]
    message: String,
    #[serde(rename = "ca")]
    created_at: DateTime,
}

fn main() {}
