//! Typed filters, reads and updates against a real server.
//!
//! Every test seeds its own database, runs typed filters, sorts, projections and updates, and reads the documents
//! back, typed and raw, to check what the server stored: the exact BSON types, the stored (short) keys, and that
//! refused operations left the documents as they were. This file holds the models and seeding the topics share; each
//! topic is a module of its own.

use crate::support;

mod arrays;
mod causes;
mod diffs;
mod filters;
mod reads;
mod scalar;
mod text;

use futures_util::TryStreamExt;
use odm::bson::{doc, oid::ObjectId, Bson, DateTime, Document};
use odm::error::{Clause, Invalid, NamedPath};
use odm::update::Operator;
use odm::{Collection, Embedded, Error, Filter, Lowercase, Model, Projection, Update};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(closed)]
struct Line {
    #[serde(rename = "s")]
    sku: String,
    #[serde(rename = "p")]
    price: i64,
    #[serde(rename = "q")]
    qty: i32,
}

#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(closed)]
struct Address {
    #[serde(rename = "c")]
    city: String,
    #[serde(rename = "z")]
    zip: String,
}

#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "shop_product", closed)]
struct Product {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "n")]
    name: String,
    #[serde(rename = "c")]
    category: String,
    #[serde(rename = "st")]
    stock: i32,
    #[serde(rename = "sd")]
    sold: i64,
    #[serde(rename = "pr")]
    price: f64,
    #[serde(rename = "ad")]
    address: Address,
    #[serde(rename = "tg")]
    #[odm(max_items = 5)]
    tags: Vec<String>,
    #[serde(rename = "sc")]
    #[odm(max_items = 8)]
    scores: Vec<i32>,
    #[serde(rename = "ln")]
    #[odm(max_items = 10)]
    lines: Vec<Line>,
    #[serde(rename = "at")]
    attrs: HashMap<String, i32>,
    #[serde(rename = "nt", skip_serializing_if = "Option::is_none")]
    note: Option<String>,
    #[serde(rename = "ds", skip_serializing_if = "Option::is_none")]
    discount: Option<i32>,
    #[serde(rename = "up")]
    updated: DateTime,
}

/// A smaller view of a product: the same stored keys, only the projected fields.
#[derive(Deserialize, Debug, PartialEq)]
struct NameStock {
    #[serde(rename = "n")]
    name: String,
    #[serde(rename = "st")]
    stock: i32,
}

/// A nested projection: only the city of the address.
#[derive(Deserialize, Debug, PartialEq)]
struct CityOnly {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "ad")]
    address: City,
}

#[derive(Deserialize, Debug, PartialEq)]
struct City {
    #[serde(rename = "c")]
    city: String,
}

/// A model for upserts: every required field can come from the filter, `$inc`, `$set` or `$setOnInsert`.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "stat_tally", closed)]
struct Tally {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "k")]
    key: String,
    #[serde(rename = "h")]
    hits: i32,
    #[serde(rename = "f")]
    first: String,
    #[serde(rename = "l")]
    last: String,
}

/// Case-normalized e-mail addresses.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "user_account", closed)]
struct Account {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "e")]
    email: Lowercase,
}

fn line(sku: &str, price: i64, qty: i32) -> Line {
    Line { sku: sku.into(), price, qty }
}

fn address(city: &str, zip: &str) -> Address {
    Address { city: city.into(), zip: zip.into() }
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| (*s).to_owned()).collect()
}

fn attrs(entries: &[(&str, i32)]) -> HashMap<String, i32> {
    entries.iter().map(|(k, v)| ((*k).to_owned(), *v)).collect()
}

fn apple() -> Product {
    Product {
        id: ObjectId::new(),
        name: "apple".into(),
        category: "fruit".into(),
        stock: 10,
        sold: 100,
        price: 1.5,
        address: address("Paris", "75001"),
        tags: strings(&["red", "sweet"]),
        scores: vec![1, 5, 9],
        lines: vec![line("a", 50, 1), line("b", 150, 2)],
        attrs: attrs(&[("w", 3)]),
        note: Some("fresh".into()),
        discount: None,
        updated: DateTime::from_millis(0),
    }
}

fn banana() -> Product {
    Product {
        id: ObjectId::new(),
        name: "banana".into(),
        category: "fruit".into(),
        stock: 0,
        sold: 250,
        price: 0.5,
        address: address("Lyon", "69001"),
        tags: strings(&["yellow", "sweet"]),
        scores: vec![2, 3],
        lines: vec![line("c", 20, 5)],
        attrs: attrs(&[("w", 7), ("h", 1)]),
        note: None,
        discount: Some(10),
        updated: DateTime::from_millis(0),
    }
}

fn carrot() -> Product {
    Product {
        id: ObjectId::new(),
        name: "carrot".into(),
        category: "veg".into(),
        stock: 25,
        sold: 40,
        price: 0.8,
        address: address("Paris", "75002"),
        tags: Vec::new(),
        scores: Vec::new(),
        lines: Vec::new(),
        attrs: HashMap::new(),
        note: Some("bio".into()),
        discount: None,
        updated: DateTime::from_millis(0),
    }
}

/// A product whose user-supplied strings look like operators: they must stay data.
fn hostile() -> Product {
    Product {
        id: ObjectId::new(),
        name: "$gt".into(),
        category: "odd".into(),
        stock: 5,
        sold: 0,
        price: 9.0,
        address: address("Nice", "06000"),
        tags: strings(&["{\"$ne\": null}"]),
        scores: vec![7],
        lines: vec![line("d", 500, 1), line("e", 5, 9)],
        attrs: attrs(&[("w", 3)]),
        note: None,
        discount: None,
        updated: DateTime::from_millis(0),
    }
}

/// A fresh database with the product collection (validator included) holding `products`.
async fn products(hint: &str, seed: &[Product]) -> (odm::testing::TestDatabase, Collection<Product>) {
    support::setup::seeded(hint, seed).await
}

/// The four seeded products.
async fn seeded(hint: &str) -> (odm::testing::TestDatabase, Collection<Product>) {
    products(hint, &[apple(), banana(), carrot(), hostile()]).await
}

/// The names of the products matching `filter`, sorted by name.
async fn names(coll: &Collection<Product>, filter: Filter<Product>) -> Vec<String> {
    let found = coll.find(filter).sort(Product::fields().name().asc()).await.expect("find");
    found.into_iter().map(|p| p.name).collect()
}

async fn raw_product(db: &odm::mongodb::Database, id: ObjectId) -> Document {
    support::raw::stored(db, "shop_product", id).await
}

async fn get(coll: &Collection<Product>, id: ObjectId) -> Product {
    coll.find_one(Product::fields().id().eq(id)).await.expect("find").expect("present")
}

/// Asserts `result` is an `InvalidOperation` whose cause mentions `needle`.
#[track_caller]
fn assert_refused<T: std::fmt::Debug>(result: odm::error::Result<T>, needle: &str) {
    match result {
        Err(Error::InvalidOperation { cause, .. }) => {
            let reason = cause.to_string();
            assert!(reason.contains(needle), "reason {reason:?} should mention {needle:?}")
        }
        other => panic!("expected InvalidOperation mentioning {needle:?}, got {other:?}"),
    }
}
