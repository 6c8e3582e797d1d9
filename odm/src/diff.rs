//! Diff updates: from an old and a new value, the minimal targeted update. Only changed paths are written; elements
//! appended to an array become `$push`, and a counter that grew with its array becomes `$inc` in the same update.
//!
//! The walk compares Rust values field by field (through [`BsonSchema::diff`]) and serializes only what changed,
//! so diffing two large values with one change costs less than serializing one of them.
//!
//! ```
//! use odm::{Model, Update, bson::{doc, oid::ObjectId}};
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Model, Serialize, Deserialize, Clone)]
//! #[odm(collection = "shop_review")]
//! struct Review {
//!     #[serde(rename = "_id")]
//!     id: ObjectId,
//!     #[serde(rename = "s")]
//!     stars: i32,
//!     #[serde(rename = "b")]
//!     body: String,
//!     #[serde(rename = "vi")]
//!     #[odm(max_items = 1000, counter = "helpful_votes")]
//!     voter_ids: Vec<ObjectId>,
//!     #[serde(rename = "hv")]
//!     helpful_votes: i32,
//! }
//!
//! let old = Review { id: ObjectId::new(), stars: 3, body: "ok".into(), voter_ids: vec![], helpful_votes: 0 };
//! let mut new = old.clone();
//! let voter = ObjectId::new();
//! new.stars = 4;
//! new.voter_ids.push(voter);
//! new.helpful_votes += 1;
//! let u = Update::diff(&old, &new).build().unwrap();
//! assert_eq!(u.update, doc! { "$set": { "s": 4 }, "$inc": { "hv": 1 }, "$push": { "vi": voter } });
//! ```

use crate::meta::Marked;
use crate::path::Encoder;
use crate::schema::BsonSchema;
use crate::update::{Op, Operator, Update};
use bson::Bson;
use serde::Serialize;
use std::borrow::Cow;

/// The changes found so far, as operators on stored paths.
#[derive(Debug, Default)]
pub struct Diff {
    pub(crate) ops: Vec<Op>,
    pub(crate) error: Option<String>,
}

/// The stored path being compared (`it.2.p`), grown and shrunk as the walk descends.
#[derive(Debug, Default)]
pub struct DiffPath(String);

impl DiffPath {
    /// Runs `f` with `segment` appended to the path.
    pub fn with<T>(&mut self, segment: &str, f: impl FnOnce(&mut DiffPath) -> T) -> T {
        let len = self.0.len();
        if !self.0.is_empty() {
            self.0.push('.');
        }
        self.0.push_str(segment);
        let out = f(self);
        self.0.truncate(len);
        out
    }

    /// The current stored path.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Diff {
    /// True when nothing changed.
    pub fn is_empty(&self) -> bool {
        self.ops.is_empty() && self.error.is_none()
    }

    fn op(&mut self, op: Operator, at: &DiffPath, value: Bson) {
        self.ops.push(Op { op, key: Cow::Owned(at.0.clone()), value });
    }

    /// Records `$set` of `value` at `at`.
    pub fn set<T: Serialize + ?Sized>(&mut self, at: &DiffPath, value: &T) {
        match bson::serialize_to_bson(value) {
            Ok(v) => self.op(Operator::Set, at, v),
            Err(e) => self.fail(crate::path::unencodable(&at.0, e)),
        }
    }

    /// Records `$set` of an encoded value.
    pub fn set_bson(&mut self, at: &DiffPath, value: Bson) {
        self.op(Operator::Set, at, value);
    }

    /// Records `$unset` at `at`.
    pub fn unset(&mut self, at: &DiffPath) {
        self.op(Operator::Unset, at, Bson::String(String::new()));
    }

    /// Records an error (the update will be refused before sending).
    pub fn fail(&mut self, why: String) {
        self.error.get_or_insert(why);
    }

    /// Turns `$set` of a counter into `$inc` when its array only grew by `$push` of exactly that many elements, so
    /// concurrent pushes stay counted. `old` is the counter's old value.
    pub fn counter_step<T: Serialize>(&mut self, at: &DiffPath, array: &str, counter: &str, old: &T) {
        if !self.ops.iter().any(|o| o.op == Operator::PushEach) {
            return;
        }
        let Some(old) = integer(old) else { return };
        let array_path = join(&at.0, array);
        let counter_path = join(&at.0, counter);
        let pushed = self.ops.iter().find_map(|o| match (&o.op, &o.value) {
            (Operator::PushEach, Bson::Array(each)) if o.key == array_path => Some(each.len() as i64),
            _ => None,
        });
        let Some(pushed) = pushed else { return };
        if let Some(op) = self.ops.iter_mut().find(|o| o.op == Operator::Set && o.key == counter_path) {
            let new = match op.value {
                Bson::Int32(n) => i64::from(n),
                Bson::Int64(n) => n,
                _ => return,
            };
            if new - old == pushed {
                op.op = Operator::Inc;
                // Keep the counter's type (an upsert's `$inc` creates the field with its operand's type).
                op.value = match op.value {
                    Bson::Int64(_) => Bson::Int64(pushed),
                    _ => Bson::Int32(pushed as i32),
                };
            }
        }
    }
}

fn join(prefix: &str, key: &str) -> String {
    if prefix.is_empty() {
        key.to_owned()
    } else {
        format!("{prefix}.{key}")
    }
}

/// A counter's value as an integer (`None` if it does not serialize as one; the derive refuses such counters).
fn integer<T: Serialize>(value: &T) -> Option<i64> {
    match bson::serialize_to_bson(value) {
        Ok(Bson::Int32(n)) => Some(i64::from(n)),
        Ok(Bson::Int64(n)) => Some(n),
        _ => None,
    }
}

/// Compares with `PartialEq`; writes the new value when it differs.
pub fn by_eq<T: PartialEq + BsonSchema + Serialize>(old: &T, new: &T, at: &mut DiffPath, out: &mut Diff) {
    if old != new {
        match T::to_bson(new) {
            Ok(v) => out.set_bson(at, v),
            Err(e) => out.fail(crate::path::unencodable(&at.0, e)),
        }
    }
}

/// Compares the serialized forms; writes the new one when they differ (types without `PartialEq`).
pub fn by_value<T: Serialize + ?Sized>(old: &T, new: &T, at: &mut DiffPath, out: &mut Diff) {
    match (bson::serialize_to_bson(old), bson::serialize_to_bson(new)) {
        (Ok(a), Ok(b)) if a == b => {}
        (_, Ok(b)) => out.set_bson(at, b),
        (_, Err(e)) => out.fail(crate::path::unencodable(&at.0, e)),
    }
}

/// A sequence: same length → element by element; grown with an unchanged prefix → `$push` of the new elements;
/// anything else → the whole array.
pub fn sequence<'a, T: BsonSchema + Serialize + 'a, I>(old: I, new: I, at: &mut DiffPath, out: &mut Diff)
where
    I: ExactSizeIterator<Item = &'a T> + Clone,
{
    let (n_old, n_new) = (old.len(), new.len());
    if n_new < n_old {
        return out.set(at, &new.collect::<Vec<_>>());
    }
    let mut scratch = Diff::default();
    let mut index = String::new();
    for (i, (a, b)) in old.clone().zip(new.clone()).enumerate() {
        index.clear();
        index.push_str(&i.to_string());
        at.with(&index, |at| T::diff(a, b, at, &mut scratch));
    }
    if n_new == n_old {
        out.ops.append(&mut scratch.ops);
        if let Some(e) = scratch.error {
            out.fail(e);
        }
        return;
    }
    if !scratch.is_empty() {
        return out.set(at, &new.collect::<Vec<_>>());
    }
    let appended: Result<Vec<Bson>, _> = new.skip(n_old).map(T::to_bson).collect();
    match appended {
        // The plain `$push` form (the `$each` list), as `Update` holds it.
        Ok(items) => out.op(Operator::PushEach, at, Bson::Array(items)),
        Err(e) => out.fail(crate::path::unencodable(&at.0, e)),
    }
}

/// A map: entries removed → `$unset`, added → `$set`, changed → their own diff.
pub fn map<'a, V: BsonSchema + Serialize + 'a>(
    old: impl Iterator<Item = (&'a String, &'a V)>,
    new: impl Iterator<Item = (&'a String, &'a V)> + Clone,
    get_old: impl Fn(&str) -> Option<&'a V>,
    get_new: impl Fn(&str) -> Option<&'a V>,
    at: &mut DiffPath,
    out: &mut Diff,
) {
    for (k, _) in old {
        if get_new(k).is_none() {
            at.with(k, |at| out.unset(at));
        }
    }
    for (k, v) in new {
        if let Some(why) = crate::keys::path_defect(k) {
            out.fail(format!("{}: map key {k:?} cannot be stored: {why}", Marked(&at.0)));
            continue;
        }
        at.with(k, |at| match get_old(k) {
            Some(o) => V::diff(o, v, at, out),
            None => out.set(at, v),
        });
    }
}

impl<R: BsonSchema + Serialize> Update<R> {
    /// The minimal targeted update turning `old` into `new`: changed paths only, appended elements as `$push`, and
    /// counters as `$inc` when they grew with their arrays. A change to `_id` or a shard key is refused.
    pub fn diff(old: &R, new: &R) -> Self {
        let mut out = Diff::default();
        R::diff(old, new, &mut DiffPath::default(), &mut out);
        let mut update = Update::new();
        // New values of maps and free-form fields carry run-time keys: refused here, as in typed updates.
        let dynamic = R::dynamic_keys(crate::schema::KEY_DEPTH);
        for op in out.ops {
            if let Err(e) = if dynamic { crate::path::check_dynamic_keys(&op.value, &op.key) } else { Ok(()) } {
                update.add_error(e);
            }
            update.add_raw(op.op, op.key, op.value);
        }
        if let Some(e) = out.error {
            update.add_error(e);
        }
        update
    }
}

/// What generated `BsonSchema::diff` impls call for converted and frozen fields; reachable only through
/// `odm::__private`, so it is no part of the public API.
pub(crate) mod generated {
    use super::{Diff, DiffPath, Encoder, Marked};
    use serde::Serialize;

    /// A field written through a serde converter (or stored as a fixed type): compares the converted forms; `skip` is its
    /// `skip_serializing_if`, if any.
    pub fn converted_skippable<T>(
        old: &T,
        new: &T,
        enc: Encoder<T>,
        skip: impl Fn(&T) -> bool,
        at: &mut DiffPath,
        key: &str,
        out: &mut Diff,
    ) {
        at.with(key, |at| match (skip(old), skip(new)) {
            (true, true) => {}
            (false, true) => out.unset(at),
            // Newly written: the whole value; written on both sides: only when the encoded forms differ.
            (true, false) => match enc(new, &at.0) {
                Ok(b) => out.set_bson(at, b),
                Err(e) => out.fail(e),
            },
            (false, false) => match (enc(old, &at.0), enc(new, &at.0)) {
                (Ok(a), Ok(b)) if a == b => {}
                (_, Ok(b)) => out.set_bson(at, b),
                (_, Err(e)) => out.fail(e),
            },
        });
    }

    /// A field that never changes (`_id`, a shard key): a change is an error, not an update.
    pub fn frozen<T: Serialize>(old: &T, new: &T, at: &mut DiffPath, key: &str, what: &str, out: &mut Diff) {
        at.with(key, |at| match (bson::serialize_to_bson(old), bson::serialize_to_bson(new)) {
            (Ok(a), Ok(b)) if a == b => {}
            _ => out.fail(format!("{} differs between the two values, but {what} cannot change", Marked(&at.0))),
        });
    }
}
