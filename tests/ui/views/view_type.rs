// `view-type`: a view's field type reads what the model stores: the same type, an `Option` of it, a view of the
// embedded struct, also inside `Vec`, `Option`, `Box` and map values. Anything else would fail to decode at run
// time, or read a changed field silently.
use odm::bson::oid::ObjectId;
use odm::{Embedded, Model, View};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Embedded, Serialize, Deserialize)]
pub struct Line {
    #[serde(rename = "sk")]
    pub sku: String,
    #[serde(rename = "q")]
    pub quantity: i32,
}

#[derive(Embedded, Serialize, Deserialize)]
pub struct Address {
    #[serde(rename = "ci")]
    pub city: String,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_order")]
pub struct Order {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    #[serde(rename = "tot")]
    pub total: i64,
    #[serde(rename = "nt", skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    #[serde(rename = "ln")]
    #[odm(max_items = 50)]
    pub lines: Vec<Line>,
    #[serde(rename = "ad")]
    pub address: Address,
    #[serde(rename = "tg")]
    pub tags: BTreeMap<String, i32>,
}

#[derive(View)]
#[odm(of = "Line")]
pub struct LineSku {
    pub sku: String,
}

/// Each field reads the model's wrongly.
#[derive(View)]
#[odm(of = "Order")]
pub struct Wrong {
    /// A number read as text.
    pub total: String,
    /// An optional field read as always there.
    pub note: String,
    /// A view of a line used for the address.
    pub address: LineSku,
    /// An array read as one value.
    pub lines: LineSku,
    /// Map values of another type.
    pub tags: BTreeMap<String, String>,
}

fn main() {}
