// `view-type`: an `Option` directly inside an `Option` has no stored state to read into it.
use odm::bson::oid::ObjectId;
use odm::{Model, View};
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_order")]
pub struct Order {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    #[serde(rename = "nt", skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    #[serde(rename = "tg", skip_serializing_if = "Option::is_none")]
    #[odm(max_items = 10)]
    pub tags: Option<Vec<String>>,
}

#[derive(View)]
#[odm(of = "Order")]
pub struct Notes {
    pub note: Option<Option<String>>,
    pub tags: Option<Vec<Option<Option<String>>>>,
}

fn main() {}
