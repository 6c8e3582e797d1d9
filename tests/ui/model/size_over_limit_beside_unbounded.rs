// `model-size`: a field without a bound does not hide bounded fields that are over 16 MiB on their own.
use odm::bson::{oid::ObjectId, Document};
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_page")]
struct Page {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "x")]
    extra: Document,
    #[serde(rename = "b")]
    #[odm(max_len = 5_000_000)]
    body: String,
}

fn main() {}
