//! Which indexes odm owns: the record it keeps of each index it created.
//!
//! ## Design notes: why a record, and why a collection
//!
//! odm changes and drops only indexes it owns. A name cannot say that: the naming rule
//! ([`index-name`](crate::rules#index-name)) tells everyone, DBAs included, to name indexes `idx_<fields>`, so a
//! DBA's `idx_au` looks exactly like one of odm's. Ownership is therefore a fact odm writes down when it creates
//! an index, as schema-migration tools keep their applied migrations: one document per index in the metadata
//! collection [`OWNED_INDEXES`] (`odm_index`) of the index's own database,
//!
//! ```text
//! { _id: { c: "<collection>", i: "<index name>" }, index: { key: …, name: …, <options as created> }, at: <date> }
//! ```
//!
//! written right after the `createIndexes` that built it (by odm's sync and by the exported mongosh script alike:
//! the record is one more command of the plan), and deleted after the `dropIndexes` that removes it. An index is
//! odm's when a record names it **and** the record's key pattern and identity options are the live index's: an
//! index a DBA dropped and recreated by hand under the same name with other keys is not odm's.
//!
//! Why a collection in the same database rather than something on the index itself: the server keeps no free-form
//! data on an index (unknown `createIndexes` options are refused, and a `comment` is not stored), a collection of
//! one small document per index is readable and writable by every tool (mongosh, a driver, `mongodump`), needs no
//! other database the application may not be allowed to write, goes wherever the database goes, and lets the
//! record be written with an idempotent upsert, so concurrent syncs that create the same index agree on one record.
//! A backup carries the records of the collections it dumps (see [`crate::backup`]).
//!
//! Indexes created before odm kept records have none, and are not odm's: they are reported, never changed nor
//! dropped, until an operator adopts them ([`AdoptIndexes`](crate::sync::plan::AdoptIndexes)).

use crate::base::index::IndexSpec;
use bson::{doc, Document};

/// The metadata collection holding the record of each index odm created, in the index's database.
pub const OWNED_INDEXES: &str = "odm_index";

/// The collections odm itself keeps in a model's database: [`OWNED_INDEXES`] and the sync's leases
/// (`odm_sync_lock`). They are never a model's collection, so listings of a database's collections for models
/// leave them out.
pub const METADATA_COLLECTIONS: [&str; 2] = [OWNED_INDEXES, "odm_sync_lock"];

/// The `_id` of the record of index `name` of `collection`.
pub fn record_id(collection: &str, name: &str) -> Document {
    doc! { "c": collection, "i": name }
}

/// The command that records `spec` of `collection` as odm's (an upsert: written twice, it is one record).
pub(crate) fn record_command(collection: &str, spec: &IndexSpec) -> Document {
    record_document_command(collection, &spec.name, spec.to_document())
}

/// The command that records `index` (an index document as `createIndexes` takes it) of `collection` as odm's.
pub(crate) fn record_document_command(collection: &str, name: &str, index: Document) -> Document {
    doc! {
        "update": OWNED_INDEXES,
        "updates": [{
            "q": { "_id": record_id(collection, name) },
            "u": { "$set": { "index": index }, "$currentDate": { "at": true } },
            "upsert": true,
        }],
    }
}

/// The command that deletes the record of index `name` of `collection`.
pub(crate) fn forget_command(collection: &str, name: &str) -> Document {
    doc! { "delete": OWNED_INDEXES, "deletes": [{ "q": { "_id": record_id(collection, name) }, "limit": 1 }] }
}

/// The records of one collection's indexes, by index name: what odm created under each name.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Records {
    by_name: Vec<(String, IndexSpec)>,
}

impl Records {
    /// Reads the records of `collection` out of documents of [`OWNED_INDEXES`] (others are ignored).
    pub fn of(collection: &str, documents: &[Document]) -> Records {
        let by_name = documents
            .iter()
            .filter_map(|d| {
                let id = d.get_document("_id").ok()?;
                if id.get_str("c").ok()? != collection {
                    return None;
                }
                let spec = IndexSpec::from_listed(d.get_document("index").ok()?)?;
                Some((id.get_str("i").ok()?.to_owned(), spec))
            })
            .collect();
        Records { by_name }
    }

    /// What odm recorded under index name `name`.
    pub fn get(&self, name: &str) -> Option<&IndexSpec> {
        self.by_name.iter().find(|(n, _)| n == name).map(|(_, s)| s)
    }

    /// Whether the live index `live` is odm's: recorded under its name with its key pattern and identity options.
    pub fn owns(&self, live: &IndexSpec) -> Ownership {
        match self.get(&live.name) {
            Some(recorded) if recorded.same_structure(live) => Ownership::Owned,
            Some(_) => Ownership::RecordedOtherwise,
            None => Ownership::NoRecord,
        }
    }
}

/// Whether odm owns a live index.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ownership {
    /// Recorded when odm created it, and still as recorded.
    Owned,
    /// odm recorded an index of this name, but with other keys or options: someone recreated it since.
    RecordedOtherwise,
    /// No record: odm did not create it (or created it before it kept records).
    NoRecord,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_index_is_owned_only_when_recorded_with_its_keys() {
        let ours = IndexSpec::new("idx_au", doc! { "au": 1 });
        let documents = vec![
            doc! { "_id": record_id("c", "idx_au"), "index": ours.to_document() },
            doc! { "_id": record_id("other", "idx_x"), "index": IndexSpec::new("idx_x", doc! { "x": 1 }).to_document() },
        ];
        let records = Records::of("c", &documents);
        assert_eq!(records.owns(&ours), Ownership::Owned);
        assert_eq!(records.owns(&IndexSpec::new("idx_au", doc! { "au": -1 })), Ownership::RecordedOtherwise);
        assert_eq!(
            records.owns(&IndexSpec::new("idx_x", doc! { "x": 1 })),
            Ownership::NoRecord,
            "another collection's"
        );
    }
}
