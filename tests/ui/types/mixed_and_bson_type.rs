// `type-declared`: `mixed` (any type) and `bson_type` (one declared type) contradict each other.
use odm::bson::Bson;
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_item")]
struct Item {
    #[serde(rename = "x")]
    #[odm(mixed, bson_type = "string")]
    extra: Bson,
}

fn main() {}
