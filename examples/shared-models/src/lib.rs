//! Models a shop shares between its services and code that never opens a database connection (a front end, a
//! message schema, a WASM client). They depend on odm's driver-free core (`default-features = false, features =
//! ["derive"]`): the derives, validators, index specs, typed filters, sorts and updates are all there; reading and
//! writing through a `Collection` is what the `driver` feature adds, in the services that talk to the server.
//!
//! Between them the models use what the derive generates: closed embedded structs, a bounded array with its
//! counter, indexes (compound, unique, partial to a variant), a versioned model with its older shape, a polymorphic
//! enum, a shard key, a revision, read and write concerns, a declared access pattern and a map of run-time keys.

use odm::bson::oid::ObjectId;
use odm::bson::DateTime;
use odm::prelude::*;
use serde::{Deserialize, Serialize};

/// One line of an order.
#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(closed)]
pub struct Line {
    /// The product's SKU.
    #[serde(rename = "sk")]
    #[odm(max_len = 32)]
    pub sku: String,
    /// Price of one item, in cents.
    #[serde(rename = "p")]
    pub price: i64,
    /// How many items.
    #[serde(rename = "q")]
    pub quantity: i32,
}

/// An order: a bounded array of lines with its counter, indexed by customer and date.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(db = "shop", module = "order", collection = "order_header", closed)]
#[odm(index(keys = "customer, -at"), index(keys = "reference", unique))]
pub struct Order {
    /// The order's id.
    #[serde(rename = "_id")]
    pub id: ObjectId,
    /// The customer's reference.
    #[serde(rename = "cu")]
    #[odm(max_len = 40)]
    pub customer: String,
    /// The order's own reference, unique.
    #[serde(rename = "ref")]
    #[odm(max_len = 20)]
    pub reference: String,
    /// When it was placed.
    #[serde(rename = "at")]
    pub at: DateTime,
    /// Its lines, at most 50, counted in `line_count`.
    #[serde(rename = "ln")]
    #[odm(max_items = 50, counter = "line_count")]
    pub lines: Vec<Line>,
    /// How many lines there are.
    #[serde(rename = "lc")]
    pub line_count: i32,
}

/// A contact as the first release stored it: one full name, no version key.
#[derive(Embedded, Deserialize)]
#[odm(closed)]
pub struct ContactV1 {
    /// The contact's id.
    #[serde(rename = "_id")]
    pub id: ObjectId,
    /// First and last name in one string.
    #[serde(rename = "n")]
    #[odm(max_len = 200)]
    pub name: String,
}

impl Upgrade for ContactV1 {
    type Next = Contact;
    fn upgrade(self) -> Contact {
        let (first, last) = self.name.split_once(' ').unwrap_or((&self.name, ""));
        Contact { id: self.id, v: Version, first: first.into(), last: last.into() }
    }
}

/// A contact at version 2: the name split in two.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(db = "crm", module = "crm", collection = "crm_contact", version = 2, older(ContactV1), closed)]
pub struct Contact {
    /// The contact's id.
    #[serde(rename = "_id")]
    pub id: ObjectId,
    /// The document's version.
    #[serde(rename = "_v")]
    pub v: Version<2>,
    /// First name.
    #[serde(rename = "f")]
    #[odm(max_len = 100)]
    pub first: String,
    /// Last name.
    #[serde(rename = "l")]
    #[odm(max_len = 100)]
    pub last: String,
}

/// Something a visitor did: one collection, one discriminator (`t`), a shape per variant.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(db = "web", module = "web", collection = "web_event", closed)]
#[odm(index(keys = "at"), index(variant = "purchase", keys = "-amount"))]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum Event {
    /// A click at a point of a page.
    Click {
        /// The event's id.
        #[serde(rename = "_id")]
        id: ObjectId,
        /// When it happened.
        #[serde(rename = "at")]
        at: DateTime,
        /// Horizontal position.
        #[serde(rename = "x")]
        x: i32,
        /// Vertical position.
        #[serde(rename = "y")]
        y: i32,
    },
    /// A purchase, with the SKUs bought (at most 20, counted).
    Purchase {
        /// The event's id.
        #[serde(rename = "_id")]
        id: ObjectId,
        /// When it happened.
        #[serde(rename = "at")]
        at: DateTime,
        /// In cents.
        #[serde(rename = "amt")]
        amount: i64,
        /// The SKUs bought.
        #[serde(rename = "sk")]
        #[odm(max_items = 20, counter = "sku_count")]
        skus: Vec<String>,
        /// How many SKUs.
        #[serde(rename = "sc")]
        sku_count: i32,
    },
}

/// A customer's balance in one region: sharded by region and customer, with optimistic concurrency, the concerns
/// its reads and writes use, a declared access pattern and free-form per-channel limits.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(db = "bank", module = "acct", collection = "acct_balance", closed, shard_key = "region, customer")]
#[odm(index(keys = "region, customer, -updated"))]
#[odm(query(eq = "region, customer", sort = "-updated"))]
#[odm(
    read_concern = "majority",
    read_preference = "nearest",
    write_concern(w = "majority", j = true, timeout_ms = 5000)
)]
pub struct Balance {
    /// The balance's id.
    #[serde(rename = "_id")]
    pub id: ObjectId,
    /// The region the balance lives in.
    #[serde(rename = "rg")]
    #[odm(max_len = 8)]
    pub region: String,
    /// The customer's reference.
    #[serde(rename = "cu")]
    #[odm(max_len = 40)]
    pub customer: String,
    /// The amount, in cents.
    #[serde(rename = "am")]
    pub amount: i64,
    /// When it last changed.
    #[serde(rename = "up")]
    pub updated: DateTime,
    /// Limits per channel, in cents.
    #[serde(rename = "lim")]
    pub limits: std::collections::BTreeMap<String, i64>,
    /// Bumped by every typed write; guarded writes compare it.
    #[serde(rename = "rv")]
    #[odm(revision)]
    pub revision: i64,
}

#[cfg(test)]
mod tests;
