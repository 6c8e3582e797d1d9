//! The sample order of the benches: an order with embedded lines, a counted bounded array and short keys, as a
//! model, and the same struct with serde only ([`serde_order`]).
#![allow(dead_code)]

pub mod serde_order;
pub mod wide;
pub mod wide_row;

use crate::bson::{oid::ObjectId, DateTime};
use odm::{Embedded, Model};
use serde::{Deserialize, Serialize};
pub use serde_order::{SerdeItem, SerdeOrder};

/// One line of the sample order, short keys.
#[derive(Embedded, Serialize, Deserialize, Clone)]
pub struct Item {
    #[serde(rename = "n")]
    pub name: String,
    #[serde(rename = "p")]
    pub unit_price: i64,
    #[serde(rename = "q")]
    pub quantity: i32,
}

/// The sample order.
#[derive(Model, Serialize, Deserialize, Clone)]
#[odm(collection = "order_header", closed)]
pub struct Order {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    #[serde(rename = "no")]
    #[odm(not_a_date)]
    pub number: String,
    #[serde(rename = "fr")]
    pub freight: i64,
    #[serde(rename = "tot")]
    pub total: i64,
    #[serde(rename = "st")]
    pub status: String,
    #[serde(rename = "ca")]
    pub created_at: DateTime,
    #[serde(rename = "it")]
    #[odm(max_items = 30, counter = "item_count")]
    pub items: Vec<Item>,
    #[serde(rename = "ic")]
    pub item_count: i32,
}

/// The sample order as the model (a new `_id`, created now).
pub fn order() -> Order {
    let items: Vec<Item> =
        serde_order::sample_lines().map(|(name, unit_price, quantity)| Item { name, unit_price, quantity }).collect();
    Order {
        id: ObjectId::new(),
        number: "201809270012598323334".into(),
        freight: 0,
        total: 4100,
        status: "paid".into(),
        created_at: DateTime::now(),
        item_count: items.len() as i32,
        items,
    }
}

/// `o` with serde only: the same values, for a decode or encode of the same document.
pub fn serde_twin(o: &Order) -> SerdeOrder {
    SerdeOrder {
        id: o.id,
        number: o.number.clone(),
        freight: o.freight,
        total: o.total,
        status: o.status.clone(),
        created_at: o.created_at,
        items: o
            .items
            .iter()
            .map(|i| SerdeItem { name: i.name.clone(), unit_price: i.unit_price, quantity: i.quantity })
            .collect(),
        item_count: o.item_count,
    }
}
