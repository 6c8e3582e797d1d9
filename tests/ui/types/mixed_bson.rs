// `type-one-bson-type`: `Bson` holds any type; a field stores one, unless it opts out with `mixed`.
use odm::bson::Bson;
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_item")]
struct Item {
    #[serde(rename = "x")]
    extra: Bson,
}

fn main() {}
