//! Dump and restore in mongodump's directory layout: the scheduled backup job, in odm's vocabulary.
//!
//! ```no_run
//! # #[derive(odm::Model, serde::Serialize, serde::Deserialize)]
//! # #[odm(db = "shop", collection = "order_header")]
//! # struct Order { #[serde(rename = "_id")] id: odm::bson::oid::ObjectId }
//! # async fn run(client: odm::mongodb::Client) -> odm::error::Result<()> {
//! use odm::backup::{Dump, Restore};
//! let report = Dump::new(&client, "backup/2026-12-05")
//!     .model::<Order>()
//!     .gzip()
//!     .on_progress(|p| eprintln!("{}/{} documents", p.done, p.total))
//!     .await?;
//! println!("{report}"); // per collection: documents, bytes, time, and the read mode used
//!
//! // Later, into another database, replacing what is there:
//! Restore::new(&client, "backup/2026-12-05").model::<Order>().into_db("shop_copy").drop_existing().await?;
//! # Ok(()) }
//! ```
//!
//! A dump or a restore takes its collections by model ([`Dump::model`]: the model's collection, or every live
//! instance of a model named by a template; [`Dump::model_in`] in another database), by name ([`Dump::collection`]),
//! or a whole database ([`Dump::database`] given alone); a restore given none takes every collection of the dump.
//!
//! A dump writes what it was given and nothing else: a collection asked for that the server does not hold is listed
//! in [`DumpReport::absent`], and a dump that selects nothing the server holds fails with
//! [`BackupError::NothingToDump`] before making any directory.
//!
//! # The layout
//!
//! A [`Dump`] writes what `mongodump --out <dir>` writes, and a [`Restore`] reads both its own dumps and
//! mongodump's (the layout mongorestore reads):
//!
//! - `<dir>/<db>/<collection>.bson`: the documents, each BSON document as the server returned it, one after
//!   another (in `_id` order; a capped collection in its insertion order, which a restore keeps); `mongorestore`
//!   and `bsondump` read it, and so does any BSON reader that walks the documents by their length prefix.
//! - `<dir>/<db>/<collection>.metadata.json`: the collection's options (its validator, validation level and
//!   action, capped size, collation, …), its indexes, UUID, name and type, as canonical Extended JSON in
//!   mongodump's format ([`layout::Metadata`]).
//! - With [`Dump::gzip`], both files gzip-compressed and named as `mongodump --gzip` names them: `.bson.gz`,
//!   `.metadata.json.gz`. A restore reads either, by the name.
//!
//! Collection names are escaped in file names exactly as mongodump escapes them ([`layout::escape_name`], Go's
//! `url.PathEscape`).
//!
//! # Consistency
//!
//! A dump reads every collection from one snapshot where the server can: a replica set member or a `mongos` of
//! MongoDB 5.0 or newer (as `hello` and `buildInfo` say), through a session with snapshot reads, so the dump is the
//! database at one moment, whatever is written meanwhile. An older replica set or cluster is read with read concern
//! `majority` (nothing a failover rolls back, but each collection as it is when read), and a standalone server with
//! plain reads. The report says which mode was used ([`DumpReport::read_mode`]). A snapshot is kept by the server
//! for a limited time (`minSnapshotHistoryWindowInSeconds`, 5 minutes by default): a dump that takes longer fails
//! with the server's `SnapshotTooOld` rather than mixing moments; [`Dump::read_mode`] asks for majority or plain
//! reads instead.
//!
//! # Files are complete or absent
//!
//! Documents are streamed to disk batch by batch (never all in memory). Each file is written under a hidden
//! temporary name (`.<collection>.bson.partial`) and renamed to its own name only once complete and flushed, the
//! documents file before the metadata: an interrupted dump (a crash, a full disk, a dropped future) never leaves a
//! cut-short `.bson` that looks complete. A collection dropped (or dropped and created again) while it is read
//! fails the dump and its file is not kept ([`BackupError::Vanished`]). A dump never overwrites a file: one that
//! exists already is refused before anything is written ([`BackupError::Exists`]).
//!
//! # Restoring
//!
//! A [`Restore`] checks everything before changing anything. Every documents file is read whole by its documents'
//! length prefixes (nothing decoded): a file cut short fails with [`BackupError::Damaged`] (the file, the byte offset,
//! the whole documents before it) and nothing is restored; the documents counted are [`Progress::total`]. Every
//! target collection is checked: one that holds documents is refused ([`BackupError::NotEmpty`]) unless
//! [`Restore::drop_existing`], which replaces it; a restore never merges.
//!
//! Each collection is then restored all or nothing. It is loaded into a temporary collection of the target database,
//! `odm_restore_tmp.<collection>`, created with the dumped options (validator included; an empty target that exists
//! keeps its own options and indexes): documents in file order, in ordered `insert` commands within the server's
//! limits (100,000 documents, 16 MiB), then the indexes. Only then is it renamed over the target
//! (`renameCollection`, atomic within a database). The collection's validator checks each document unless
//! [`Restore::bypass_validation`]: the first refused ([`BackupError::Refused`], naming the collection, the
//! document's `_id` and the failing fields, by Rust path when the collection's model was given with
//! [`Restore::model`]), a damaged document or a server error drops the temporary collection and stops the restore
//! with [`BackupError::Stopped`], which names what was restored and what was not; the target is as it was. A
//! process killed in the middle leaves the temporary collection, never a half-loaded target: the next restore into
//! that database drops it when it loads the same collection ([`RestoreReport::removed`]) and names one of another
//! collection, untouched ([`RestoreReport::leftovers`]).
//!
//! mongod keeps a collection's options through a rename; not every server does. A restore asks each target database
//! once (it renames a small collection of its own and reads its options back). Where they are lost, the validator
//! and validation settings are set again with `collMod` right after the rename, and a collection with options only
//! `create` sets (capped, collation) is loaded in place and dropped again if the load fails.
//!
//! A collection the dump has metadata alone for is created empty, with its indexes; one it has documents alone for
//! (copied without its metadata file, or a dump cut off between a collection's two files) is created without options
//! or indexes, and its report says so ([`CollectionRestore::metadata`], a warning on target `odm::backup`).
//!
//! Views and time-series collections are left to mongodump and mongorestore: asked for by name or model they are
//! refused ([`BackupError::Unsupported`]); in a whole database (or a whole dump) they are left out and listed in
//! [`DumpReport::skipped`] and [`RestoreReport::skipped`].
//!
//! [`BackupError::Damaged`]: crate::error::BackupError::Damaged
//! [`BackupError::Exists`]: crate::error::BackupError::Exists
//! [`BackupError::NothingToDump`]: crate::error::BackupError::NothingToDump
//! [`BackupError::Stopped`]: crate::error::BackupError::Stopped
//! [`Progress::total`]: crate::progress::Progress::total
//! [`BackupError::NotEmpty`]: crate::error::BackupError::NotEmpty
//! [`BackupError::Refused`]: crate::error::BackupError::Refused
//! [`BackupError::Unsupported`]: crate::error::BackupError::Unsupported
//! [`BackupError::Vanished`]: crate::error::BackupError::Vanished

mod consistency;
mod dump;
mod files;
mod insert;
pub mod layout;
mod owned;
mod report;
mod restore;
mod select;
mod source;
mod staging;

pub use consistency::ReadMode;
pub use dump::Dump;
pub use report::{CollectionDump, CollectionRestore, DumpReport, RestoreReport};
pub use restore::Restore;
