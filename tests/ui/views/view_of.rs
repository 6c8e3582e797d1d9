// `view-of`: a view is a struct with named fields, no generic parameters and at least one field, of a struct
// deriving `Model` or `Embedded`, and says which with `#[odm(of = "…")]`.
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

/// No `of`.
#[derive(View)]
pub struct NoOf {
    pub status: String,
}

/// A tuple struct.
#[derive(View)]
#[odm(of = "Order")]
pub struct Tuple(pub String);

/// Generic.
#[derive(View)]
#[odm(of = "Order")]
pub struct Generic<T> {
    pub status: T,
}

/// Nothing to read.
#[derive(View)]
#[odm(of = "Order")]
pub struct Empty {}

fn main() {}
