// `attr-unknown`: a view takes `of` and `crate`, its fields no odm attributes (what a field stores is declared once,
// on the model).
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
}

#[derive(View)]
#[odm(of = "Order", colection = "shop_order")]
pub struct Summary {
    #[odm(max_len = 10)]
    pub status: String,
}

fn main() {}
