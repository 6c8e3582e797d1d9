//! Versioned models: every document carries the version of the shape it was written in, and documents written by
//! an older version are migrated when read, one step per version (rules [`version-field`](crate::rules#version-field)
//! and [`version-step`](crate::rules#version-step)).
//!
//! A model declares its version and keeps the shapes it still reads; each older shape says how it becomes the next
//! one. Every typed read (`find`, `find_one`, `find_one_and_update`, streams) returns the current type.
//!
//! Writes never leave a document mixing two versions, and never skip an older one silently. While the model still
//! reads older versions:
//! - typed updates (`update_one`, `update_many`, their `.upsert()`, `find_one_and_update`) apply to documents at the
//!   current version only; `update_many` and upserts are refused before anything is written when any matching
//!   document is older, and `update_one`/`find_one_and_update` fail when only older documents match
//!   ([`Error::NotMigrated`](crate::Error::NotMigrated), naming how many and one `_id`);
//! - [`Collection::update_changes`](crate::Collection::update_changes) on an older document writes the new value
//!   whole, so the migration happens in that write (guarded by the version it was found at), even when nothing
//!   changed: read, save, and the document is stored at the current version;
//! - `insert_one` and `replace_one` write whole current values, at the current version.
//!
//! # Filters while older documents remain
//!
//! A typed filter is written in the current shape's keys, and the server compares it with documents as stored: an
//! older document that reads as `last: "Lovelace"` but is stored as `{n: "Ada Lovelace"}` does not match
//! `last == "Lovelace"`. Rather than answer 0 until the migration has run and 1 after, a typed filter (of `find`,
//! `find_one`, `count`, the updates, deletes and find-and-modify calls, `replace_one`, `update_changes`) that names
//! a key some older shape lacks or stores differently (by its schema) fails before it is sent with
//! [`Error::FilterNotMigrated`](crate::Error::FilterNotMigrated), naming the fields, the versions and one older
//! document, while documents of older versions may remain:
//!
//! - once sync has tightened the collection's validator to the current version alone (it does so only when no
//!   older document is left, and that validator, unless its action is `warn` or its level `off`, refuses new ones),
//!   such filters are sent as they are (the validator is read once per collection and process);
//! - before that (the validator still accepts older versions, or the collection has none), one `find_one` on the
//!   version key per operation looks for a document of another version, and the filter is sent as it is when there
//!   is none (an index on the version key keeps that lookup cheap);
//! - a filter that pins the version key to the current version (`f.v().eq(Version)` beside the other conditions)
//!   says it means current documents only, and is sent as it is;
//! - keys every version stores alike (`_id`, say) are never checked.
//!
//! A [bulk write](crate::bulk) checks the filters of its deletes and replacements the same way, once for all,
//! before anything is sent (its updates are refused while the model reads older versions). Aggregation pipelines
//! and change streams are not checked: their stages are written against stored documents, and see older ones as
//! stored.
//!
//! The validator follows the data. Each older shape derives [`Embedded`](crate::Embedded) (with the keys its
//! documents were written with), so while documents of older versions remain, sync installs
//! [`accepting_older`]: every version the model reads, each in its own shape tied to its version, and nothing else.
//! The version key is typed in every shape as the current version stores it (`int`): a version written as a double
//! (`1.0`), a long or a decimal, which `enum` alone would take as equal, is refused, so every version value the
//! server accepts is one a typed read takes. Once none are left (after a batch migration, or once every one was
//! rewritten), sync tightens it to the current version alone ([`Model::validator`](crate::Model::validator)),
//! through the staged rollout. Older documents the model cannot read (written around the validator, or before it
//! typed the version key) would keep that from ever happening: sync reports them, by count and `_id`, as
//! [`Action::UnreadableDocuments`](crate::sync::plan::Action::UnreadableDocuments) (drift), never as in sync. Each
//! validator names its version, so a binary with an older version of the model leaves a collection a newer one
//! synced alone (see [`crate::sync`]).
//!
//! ```
//! use odm::{Model, Upgrade, Version};
//! use serde::{Deserialize, Serialize};
//!
//! /// Version 1: one `name`.
//! #[derive(odm::Embedded, Deserialize)]
//! struct ProfileV1 {
//!     #[serde(rename = "_id")]
//!     id: odm::bson::oid::ObjectId,
//!     #[serde(rename = "n")]
//!     name: String,
//! }
//!
//! impl Upgrade for ProfileV1 {
//!     type Next = Profile;
//!     fn upgrade(self) -> Profile {
//!         let (first, last) = self.name.split_once(' ').unwrap_or((&self.name, ""));
//!         Profile { id: self.id, v: Version, first: first.into(), last: last.into() }
//!     }
//! }
//!
//! /// Version 2: the name split in two.
//! #[derive(Model, Serialize, Deserialize)]
//! #[odm(collection = "user_profile", version = 2, older(ProfileV1))]
//! struct Profile {
//!     #[serde(rename = "_id")]
//!     id: odm::bson::oid::ObjectId,
//!     #[serde(rename = "_v")]
//!     v: Version<2>,
//!     #[serde(rename = "f")]
//!     first: String,
//!     #[serde(rename = "l")]
//!     last: String,
//! }
//!
//! let old = odm::bson::doc! { "_id": odm::bson::oid::ObjectId::new(), "n": "Ada Lovelace" };
//! let raw = odm::bson::RawDocumentBuf::try_from(&old).unwrap();
//! let read: Profile = odm::codec::decode(&raw).unwrap();
//! assert_eq!((read.first.as_str(), read.last.as_str()), ("Ada", "Lovelace"));
//! assert_eq!(Profile::VERSION, Some(odm::model::VersionSpec { key: "_v", current: 2, oldest: 1 }));
//! ```

pub use crate::base::error::FilterNotMigratedError;
pub use crate::base::model::older::version_of_validator;
#[doc(hidden)]
pub use crate::base::model::older::{shape, OlderShape, OlderVersion};
pub use crate::base::version::{accepting_older, Upgrade, Version};
#[doc(hidden)]
pub use crate::base::version::{read, step, VersionNumber};
