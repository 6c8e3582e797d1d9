// `view-serde`: a view reads each field under the model's key, decoded as the model's type decodes it; serde
// attributes on it would say otherwise and be ignored.
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

#[derive(View)]
#[odm(of = "Order")]
#[serde(deny_unknown_fields)]
pub struct Summary {
    #[serde(rename = "st")]
    pub status: String,
    #[serde(default)]
    pub total: i64,
}

/// Its uses add no errors of their own.
pub fn read(orders: &odm::Collection<Order>) {
    let _ = orders.find(odm::Filter::everything()).view::<Summary>();
}

fn main() {}
