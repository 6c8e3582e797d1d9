//! The update bench's statements written with `doc!` and serde alone: an order line, the update (`$set` the status,
//! `$inc` the total and the line count, `$push` the line) with its `_id` filter, and the filter alone. Shared by the
//! update bench and the statement baseline built outside the workspace (`baseline-statements`), so both build the
//! same documents from the same source.

use crate::bson::{doc, oid::ObjectId, Document};
use serde::Serialize;

/// One order line, short keys, as the update bench's model stores it.
#[derive(Serialize, Clone)]
pub struct DocLine {
    #[serde(rename = "n")]
    pub name: String,
    #[serde(rename = "s")]
    pub sku: String,
    #[serde(rename = "p")]
    pub unit_price: i64,
    #[serde(rename = "q")]
    pub quantity: i32,
}

/// The line numbered `i`, with the update bench's values.
pub fn doc_line(i: usize) -> DocLine {
    DocLine {
        name: format!("炫迈口香糖 薄荷味 无糖 50 粒装 {i:02}"),
        sku: format!("SKU-2018-0927-{i:05}"),
        unit_price: 800 + i as i64,
        quantity: 2,
    }
}

/// The update and its filter, by hand: the line through `bson::serialize_to_bson`, the status as a literal.
pub fn doc_update<L: Serialize>(id: ObjectId, l: L) -> (Document, Document) {
    let q = doc! { "_id": id };
    let line = crate::bson::serialize_to_bson(&l).expect("encode");
    let u = doc! { "$set": { "st": "paid" }, "$inc": { "tot": 5_i64, "ic": 1 }, "$push": { "it": line } };
    (q, u)
}

/// The filter alone.
pub fn doc_filter(id: ObjectId) -> Document {
    doc! { "_id": id }
}
