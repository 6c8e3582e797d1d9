//! The sample order with serde derives only (the same short keys as the model): what a plain driver program
//! decodes. Shared by the codec and find benches and by the baseline crate built outside the workspace
//! (`baseline-decode`), so every side decodes the same struct; it names bson through `crate::bson`.

use crate::bson::{oid::ObjectId, DateTime};
use serde::{Deserialize, Serialize};

/// The sample order, serde only.
#[derive(Serialize, Deserialize, Clone)]
pub struct SerdeOrder {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    #[serde(rename = "no")]
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
    pub items: Vec<SerdeItem>,
    #[serde(rename = "ic")]
    pub item_count: i32,
}

/// One line of the sample order, serde only.
#[derive(Serialize, Deserialize, Clone)]
pub struct SerdeItem {
    #[serde(rename = "n")]
    pub name: String,
    #[serde(rename = "p")]
    pub unit_price: i64,
    #[serde(rename = "q")]
    pub quantity: i32,
}

/// The sample order's lines: three, with non-ASCII names.
pub fn sample_lines() -> impl Iterator<Item = (String, i64, i32)> {
    (0..3).map(|i| (format!("口香糖 {i}"), 800 + i, 2))
}

impl SerdeOrder {
    /// The sample order (a new `_id`, created now).
    pub fn sample() -> Self {
        let items: Vec<SerdeItem> =
            sample_lines().map(|(name, unit_price, quantity)| SerdeItem { name, unit_price, quantity }).collect();
        SerdeOrder {
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
}
