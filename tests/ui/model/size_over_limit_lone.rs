// `model-size`: a model with one field that may be large is refused at that field.
use odm::bson::oid::ObjectId;
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_meter")]
struct Meter {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "r")]
    #[odm(max_items = 2_000_000)]
    readings: Vec<i64>,
    #[serde(rename = "c")]
    count: i32,
}

fn main() {}
