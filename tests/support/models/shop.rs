//! The shop's order as the change-stream and server-error tests use it: a total and an optional note, on a
//! collection without a validator (another program writes there too).

use odm::bson::oid::ObjectId;
use odm::Model;
use serde::{Deserialize, Serialize};

/// An order: its total, and a note only some orders have.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "shop_order")]
pub struct Order {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    #[serde(rename = "t")]
    pub total: i64,
    #[serde(rename = "n", skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// A new order of `total`, without a note.
pub fn order(total: i64) -> Order {
    Order { id: ObjectId::new(), total, note: None }
}
