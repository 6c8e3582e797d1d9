//! What some errors carry: documents left at an older version, a scatter-gather refusal, a stored version the model
//! does not read, a counted set holding the element to pull more than once.

use bson::Bson;
use std::fmt;

/// Documents a typed update matched at an older version ([`Error::NotMigrated`](crate::Error::NotMigrated)).
#[derive(Debug, Clone, PartialEq)]
pub struct NotMigratedError {
    /// The model's Rust type name.
    pub model: &'static str,
    /// How many documents matching the filter are at an older version (at least 1).
    pub count: u64,
    /// The `_id` of one of them.
    pub id: Option<Bson>,
    /// Its version (`None`: no version key, read as the oldest).
    pub version: Option<i64>,
    /// The version this release writes.
    pub current: u32,
}

impl fmt::Display for NotMigratedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let NotMigratedError { model, count, id, version, current } = self;
        let id = id.as_ref().map_or_else(String::new, |id| format!(" _id {id}"));
        let version = version.map_or_else(|| "without a version key".to_owned(), |v| format!("at version {v}"));
        write!(
            f,
            "{model}: {count} document(s) matching the filter are at an older version (e.g.{id}, {version}); a typed \
             update would leave them mixing that version's fields with version {current}'s, so none of them was \
             updated: store them at version {current} first (read, which migrates, then `replace_one` or \
             `update_changes`), then retry"
        )
    }
}
/// A single-document operation that would reach every shard ([`Error::ScatterGather`](crate::Error::ScatterGather)).
#[derive(Debug, Clone, PartialEq)]
pub struct ScatterGatherError {
    /// The model's Rust type name.
    pub model: &'static str,
    /// The operation (`find_one`, `update_one`, …).
    pub operation: &'static str,
    /// The shard key fields the filter does not hold to one value, as Rust paths (`Order.customer`).
    pub missing: Vec<String>,
}

impl fmt::Display for ScatterGatherError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ScatterGatherError { model, operation, missing } = self;
        let fields = missing.iter().map(|m| format!("`{m}`")).collect::<Vec<_>>().join(", ");
        write!(
            f,
            "{model}: `{operation}` would be sent to every shard: its filter does not hold the shard key field(s) \
             {fields} to one value (nor `_id`); add an equality on them to the filter, or set `#[odm(scatter = \
             \"warn\")]` (or `\"allow\"`) on the model to send it anyway (rule `shard-scatter`); nothing was sent"
        )
    }
}

/// A stored document at a version the model does not read ([`Error::Version`](crate::Error::Version)).
#[derive(Debug, Clone, PartialEq)]
pub struct VersionError {
    /// The model's Rust type name.
    pub model: &'static str,
    /// The document's `_id`, when it has one.
    pub id: Option<Bson>,
    /// The version stored in the document.
    pub found: i64,
    /// The version this release writes.
    pub current: u32,
    /// The oldest version it reads.
    pub oldest: u32,
}

impl fmt::Display for VersionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let VersionError { model, id, found, current, oldest } = self;
        let id = id.as_ref().map_or_else(|| "without _id".to_owned(), |id| format!("with _id {id}"));
        if *found > i64::from(*current) {
            write!(
                f,
                "{model}: the document {id} is at version {found}, newer than version {current} this \
                 release writes: it was written by a newer release, so read it with that one"
            )
        } else {
            write!(
                f,
                "{model}: the document {id} is at version {found}, but this release reads versions \
                 {oldest} to {current}: keep the older shape in `older(…)` with its migration step, or migrate \
                 the collection with a release that still reads it"
            )
        }
    }
}

/// A pull of one element from a counted set left a document alone because its stored set holds that element more
/// than once ([`Error::DuplicateInSet`](crate::Error::DuplicateInSet)): removing every copy would drop the counter by
/// one for several elements, so nothing was written to that document. An `update_many` still changed the other
/// documents it matched ([`updated`](Self::updated) says how many).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct DuplicateInSetError {
    /// The model's Rust type name.
    pub model: &'static str,
    /// The set's Rust path (`Ballot.votes`).
    pub path: String,
    /// The set's stored path (`vs`).
    pub stored: String,
    /// The Rust path of the set's counter (`Ballot.vote_count`).
    pub counter: String,
    /// The `_id` of the document holding the set.
    pub id: Bson,
    /// How many of its elements equal the one to pull (at least 2).
    pub copies: u64,
    /// How many other documents the update changed: an `update_many` goes on past such a document, and reports it
    /// afterwards (0 for an update of one document, which changed nothing).
    pub updated: u64,
}

impl fmt::Display for DuplicateInSetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let DuplicateInSetError { model, path, stored, counter, id, copies, updated } = self;
        write!(
            f,
            "{model} with _id {id}: `{path}` (stored `{stored}`) holds the element to pull {copies} times, the same \
             keys and values in different key orders (the server's `uniqueItems` compares key order, so another \
             client could store both) or stored before the set's validator; pulling it would remove {copies} \
             elements while `{counter}` drops by one, so nothing was written to it. Run the schema checker \
             (`Collection::check_schema`), which reports such sets under rule `array-unique`, and repair the \
             document: remove the {copies} copies and lower `{counter}` by {copies} in one update, then add the \
             element back with `add_to_set`"
        )?;
        match updated {
            0 => Ok(()),
            1 => write!(f, ". The update changed 1 other document it matched"),
            n => write!(f, ". The update changed {n} other documents it matched"),
        }
    }
}
