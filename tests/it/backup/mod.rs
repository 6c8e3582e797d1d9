//! Dump and restore against the real server: a dump restored into another database holds every document byte for
//! byte (every BSON type odm stores) with the validator, options and indexes; gzip or not; the files read by
//! outside BSON readers (the Node `bson` package mongosh brings, and pymongo's where the server's Python has it); a
//! restore into a collection holding documents refused with nothing lost; a validator's refusal named by
//! collection, `_id` and Rust field; an interrupted dump (dropped, killed, or a collection dropped under it) leaving
//! no complete-looking file; mongodump's older metadata form restored. This file holds the models and helpers the
//! topics share; each topic is a module of its own.

use crate::support;

mod all_or_nothing;
mod interrupted;
mod names;
mod outside;
mod ownership;
mod refusals;
mod round_trip;
mod selection;
mod spans;

use futures_util::TryStreamExt;
use odm::backup::{Dump, ReadMode, Restore};
use odm::bson::{doc, oid::ObjectId, Binary, Bson, DateTime, Decimal128, Document, RawDocumentBuf, Regex, Timestamp};
use odm::error::BackupError;
use odm::{Collection, Embedded, Error, Model};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use support::server::{collection_options, live_indexes};

/// A part of an item: an embedded document.
#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(closed)]
struct Part {
    #[serde(rename = "n")]
    name: String,
    #[serde(rename = "w")]
    weight: f64,
}

/// A document holding every BSON type odm stores.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "shop_item", closed, index(keys = "sku", unique), index(keys = "-at, qty"))]
struct Item {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "sku")]
    sku: String,
    #[serde(rename = "pr")]
    price: f64,
    #[serde(rename = "qty")]
    qty: i32,
    #[serde(rename = "tot")]
    total: i64,
    #[serde(rename = "am")]
    amount: Decimal128,
    #[serde(rename = "ok")]
    active: bool,
    #[serde(rename = "at")]
    at: DateTime,
    #[serde(rename = "ts")]
    stamp: Timestamp,
    #[serde(rename = "bin")]
    blob: Binary,
    #[serde(rename = "pt")]
    part: Part,
    #[serde(rename = "tg")]
    #[odm(max_items = 10)]
    tags: Vec<String>,
    #[serde(rename = "nt")]
    #[odm(nullable)]
    note: Option<String>,
    /// Free-form: holds what no typed field maps to (a regex, nested arrays, min and max keys).
    #[serde(rename = "x")]
    extra: Document,
}

/// A log kept one collection per month: a dump of the model takes every live month.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "log_app_event_{yyyymm}", keep_periods = 12, index(keys = "kind"))]
struct Event {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "k")]
    kind: String,
}

/// A capped log: options beside the validator.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "log_app_entry", capped(size = 1048576, max = 5000))]
struct Entry {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "m")]
    message: String,
}

fn item(i: u32) -> Item {
    Item {
        id: ObjectId::new(),
        sku: format!("sku-{i:05}"),
        price: f64::from(i) * 1.25 + 0.5,
        qty: i as i32 - 50,
        total: i64::from(i) * 10_000_000_000,
        amount: format!("{i}.0{i}").parse().expect("a decimal"),
        active: i.is_multiple_of(2),
        at: DateTime::from_millis(1_700_000_000_000 + i64::from(i) * 1000),
        stamp: Timestamp { time: 1_700_000_000 + i, increment: i + 1 },
        blob: Binary { subtype: odm::bson::spec::BinarySubtype::Generic, bytes: vec![0, 1, 2, (i % 256) as u8] },
        part: Part { name: format!("part {i} é"), weight: 0.125 },
        tags: vec!["a".into(), format!("t{i}")],
        note: i.is_multiple_of(3).then(|| "fragile".to_owned()),
        extra: doc! {
            "re": Regex { pattern: "^a.c$".to_owned().try_into().expect("a pattern"), options: "i".to_owned().try_into().expect("options") },
            "nested": [[1, 2], { "k": Bson::Null }],
            "lo": Bson::MinKey,
            "hi": Bson::MaxKey,
        },
    }
}

/// A fresh directory for one test's dump, removed when the test ends (passed or failed).
fn out_dir(db: &odm::testing::TestDatabase) -> Scratch {
    let dir = std::env::temp_dir().join(format!("odm-backup-{}", db.name()));
    let _ = std::fs::remove_dir_all(&dir);
    Scratch(dir)
}

/// A directory removed when dropped.
struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = PathBuf;

    fn deref(&self) -> &PathBuf {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The collection's documents as the server stores them, in `_id` order, as raw BSON.
async fn raw_documents(db: &odm::mongodb::Database, collection: &str) -> Vec<RawDocumentBuf> {
    db.collection::<RawDocumentBuf>(collection)
        .find(doc! {})
        .sort(doc! { "_id": 1 })
        .await
        .expect("find")
        .try_collect()
        .await
        .expect("read")
}

/// The collection's documents in their natural (for a capped collection: insertion) order, as raw BSON.
async fn natural_order(db: &odm::mongodb::Database, collection: &str) -> Vec<RawDocumentBuf> {
    let natural = odm::mongodb::options::Hint::Keys(doc! { "$natural": 1 });
    let cursor = db.collection::<RawDocumentBuf>(collection).find(doc! {}).hint(natural).await.expect("find");
    cursor.try_collect().await.expect("read")
}

/// The indexes of a collection without the fields that name its namespace, by name.
async fn indexes_by_name(db: &odm::mongodb::Database, collection: &str) -> Vec<Document> {
    let mut indexes: Vec<Document> = live_indexes(db, collection)
        .await
        .into_iter()
        .map(|mut i| {
            i.remove("ns");
            i
        })
        .collect();
    indexes.sort_by(|a, b| a.get_str("name").unwrap_or("").cmp(b.get_str("name").unwrap_or("")));
    indexes
}

/// Files under `dir` whose names end in `.partial` (left by an unfinished write).
fn partial_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(partial_files(&path));
        } else if path.to_string_lossy().ends_with(".partial") {
            found.push(path);
        }
    }
    found
}

/// Seeds `count` items and a few log entries into `db`, both collections created by sync.
async fn seed(db: &odm::testing::TestDatabase, count: u32) {
    odm::SchemaSync::new(db.client())
        .database(db.name())
        .model::<Item>()
        .model::<Entry>()
        .await
        .and_then(|r| r.require_in_sync())
        .expect("sync");
    let items = Collection::<Item>::new(db);
    let values: Vec<Item> = (0..count).map(item).collect();
    for chunk in values.chunks(1000) {
        items.insert_many(chunk).await.expect("seed items");
    }
    let entries = Collection::<Entry>::new(db);
    // Inserted in descending `_id` order: the capped log's own (insertion) order is not its `_id` order.
    let ids: Vec<ObjectId> = (0..5).map(|_| ObjectId::new()).collect();
    let logs: Vec<Entry> =
        ids.iter().rev().enumerate().map(|(i, id)| Entry { id: *id, message: format!("line {i}") }).collect();
    entries.insert_many(&logs).await.expect("seed entries");
}

fn backup_error(e: Error) -> BackupError {
    match e {
        Error::Backup(b) => *b,
        other => panic!("expected a backup error, got: {other}"),
    }
}

/// `bytes` gzip-compressed by `gzip` itself, as mongodump's `--gzip` files are made by another program.
fn gzip(bytes: &[u8]) -> Vec<u8> {
    gzip_tool(&["-c"], bytes)
}

/// What the `gzip` command prints for `bytes` on its input, run with `args`.
fn gzip_tool(args: &[&str], bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut child = std::process::Command::new("gzip")
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("gzip runs");
    child.stdin.take().expect("stdin").write_all(bytes).expect("feed gzip");
    let out = child.wait_with_output().expect("gzip output");
    assert!(out.status.success());
    out.stdout
}
