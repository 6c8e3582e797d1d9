//! Counters kept in step with their arrays, against a real server.
//!
//! Every model here has counted arrays, so its validator carries a `$expr` check (`size(array) == counter`): any
//! write that leaves a counter out of step is refused by the server with code 121. The tests read back what the
//! server stored (typed, and raw to see BSON types) rather than trusting what was sent. This file holds the models and
//! helpers the topics share; each topic is a module of its own.

use crate::support;

mod bounds;
mod concurrent;
mod invariant;
mod nested;
mod operators;
mod sets;

use odm::bson::{doc, oid::ObjectId, Bson, Document};
use odm::error::Invalid;
use odm::{BsonSchema, Collection, Embedded, Filter, Model, Update};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// The model of the issue: helpful votes counted next to the voters, plus a second counted array with a `long`
/// counter and a small bound.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "shop_review")]
struct Review {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "s")]
    stars: i32,
    #[serde(rename = "vi")]
    #[odm(max_items = 1000, counter = "helpful_votes")]
    voter_ids: Vec<ObjectId>,
    #[serde(rename = "hv")]
    helpful_votes: i32,
    #[serde(rename = "fl")]
    #[odm(max_items = 4, counter = "flag_count")]
    flaggers: Vec<String>,
    #[serde(rename = "fc")]
    flag_count: i64,
}

fn review(voters: &[ObjectId], flaggers: &[&str]) -> Review {
    Review {
        id: ObjectId::new(),
        stars: 4,
        voter_ids: voters.to_vec(),
        helpful_votes: voters.len() as i32,
        flaggers: flaggers.iter().map(|s| (*s).to_owned()).collect(),
        flag_count: flaggers.len() as i64,
    }
}

/// A counted array inside the elements of an array.
#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Item {
    #[serde(rename = "n")]
    name: String,
    #[serde(rename = "tg")]
    #[odm(max_items = 10, counter = "tag_count")]
    tags: Vec<String>,
    #[serde(rename = "tc")]
    tag_count: i32,
}

fn item(name: &str, tags: &[&str]) -> Item {
    Item { name: name.to_owned(), tags: tags.iter().map(|s| (*s).to_owned()).collect(), tag_count: tags.len() as i32 }
}

#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "shop_basket")]
struct Basket {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "it")]
    #[odm(max_items = 20)]
    items: Vec<Item>,
}

/// Only counted arrays besides `_id`, so an upsert can create a valid document from pushes alone.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "shop_tally")]
struct Tally {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "e")]
    #[odm(max_items = 100, counter = "entry_count")]
    entries: Vec<String>,
    #[serde(rename = "ec")]
    entry_count: i32,
    #[serde(rename = "m")]
    #[odm(max_items = 100, counter = "mark_count")]
    marks: Vec<i32>,
    #[serde(rename = "mc")]
    mark_count: i64,
}

/// A bounded history that keeps its newest elements.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "shop_feed")]
struct Feed {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "r")]
    #[odm(max_items = 5, keep_last)]
    recent: Vec<i32>,
}

/// The stored document, typed.
async fn read<M: Model>(coll: &Collection<M>, filter: Filter<M>) -> M {
    coll.find_one(filter).await.expect("read").expect("document exists")
}

/// The value stored at `key`, which must be an `int`.
fn int32(d: &Document, key: &str) -> i32 {
    match d.get(key) {
        Some(Bson::Int32(n)) => *n,
        other => panic!("`{key}` should be stored as an int, found {other:?} in {d}"),
    }
}

/// The value stored at `key`, which must be a `long`.
fn int64(d: &Document, key: &str) -> i64 {
    match d.get(key) {
        Some(Bson::Int64(n)) => *n,
        other => panic!("`{key}` should be stored as a long, found {other:?} in {d}"),
    }
}

fn assert_in_step(r: &Review) {
    assert_eq!(r.helpful_votes as usize, r.voter_ids.len(), "helpful_votes in step: {r:?}");
    assert_eq!(r.flag_count as usize, r.flaggers.len(), "flag_count in step: {r:?}");
}

fn invalid_operation(err: &odm::Error) -> String {
    match err {
        odm::Error::InvalidOperation { cause, .. } => cause.to_string(),
        other => panic!("expected InvalidOperation, got {other:?}"),
    }
}

/// A deterministic shuffle (xorshift64 + Fisher-Yates): the same interleaving every run.
fn shuffle<T>(items: &mut [T], mut seed: u64) {
    for i in (1..items.len()).rev() {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let j = (seed % (i as u64 + 1)) as usize;
        items.swap(i, j);
    }
}
