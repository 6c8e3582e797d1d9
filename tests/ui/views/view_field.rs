// `view-field`: a view's field is one the model stores, named as the model names it; the view reads it under the
// model's key, so a typo or a field the model does not have cannot read an absent key as `None` at run time.
use odm::bson::oid::ObjectId;
use odm::{Model, View};
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_order")]
pub struct Order {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    #[serde(rename = "st")]
    pub status: String,
    #[serde(rename = "tot")]
    pub total: i64,
}

/// `totl` is a typo, and the view's `Option` would have read the absent key as `None`.
#[derive(View)]
#[odm(of = "Order")]
pub struct Totals {
    pub status: String,
    pub totl: Option<i64>,
}

/// Named by the stored key instead of the field's name.
#[derive(View)]
#[odm(of = "Order")]
pub struct ByKey {
    pub st: String,
}

fn main() {}
