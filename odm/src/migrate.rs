//! Batch migration: one call brings every document of a versioned model's collection to the current version.
//!
//! Typed reads migrate older documents as they read them (see [`crate::version`]); [`Collection::migrate`] stores
//! the migrated values, so the model can later drop its older shapes. It reads the documents not at the current
//! version in `_id` order, a batch at a time, migrates each through the model's [`Upgrade`](crate::Upgrade) steps
//! (the same path as a typed read), and writes each batch back with one bulk `update` command.
//!
//! - **Safe against concurrent writes.** Every replacement is guarded by the whole document as it was read: it
//!   applies only if the stored document is still equal to it, so a document that another writer changed meanwhile
//!   (even one that an older release updated and kept at its old version, or a field added to it) is never
//!   overwritten with a value computed from stale data. Such documents are read again and migrated from their new
//!   content in a later pass ([`MigrationReport::retried`]); none is lost.
//! - **Resumable.** Only documents whose version is not the current one are selected, so current documents are
//!   never rewritten, and running the migration again after an interruption (a crash, a deploy, a dropped future)
//!   simply continues with what is left. The future may be dropped at any point: every document is then either at its
//!   old version or fully migrated.
//! - **Checked like every odm write.** Each migrated value is encoded with [`crate::codec::encode`] (16 MiB, run-time keys)
//!   and each statement size-checked before anything is sent; the server's validator checks the result.
//! - **Failures are reported, not fatal.** A document that does not decode (or is at a version the model does not
//!   read, or is refused by the server) is left as it is and listed with its `_id` in
//!   [`MigrationReport::failed`]; [`Migration::fail_fast`] stops at the first one instead.
//! - **Progress and throttle.** [`Migration::on_progress`] sees every batch (done/total, rate, ETA), and
//!   [`Migration::throttle`] caps the rate or pauses between batches, to spare a busy primary.
//!
//! ```no_run
//! # async fn run(contacts: odm::Collection<impl odm::Model>) -> odm::error::Result<()> {
//! use odm::migrate::Throttle;
//! let report = contacts
//!     .migrate()
//!     .batch_size(500)
//!     .throttle(Throttle::DocsPerSecond(5_000.0))
//!     .on_progress(|p| eprintln!("{}/{} migrated, {:.0}/s, eta {:?}", p.done, p.total, p.rate(), p.eta()))
//!     .await?;
//! println!("{report}");
//! for failure in &report.failed {
//!     eprintln!("not migrated: {failure}");
//! }
//! # Ok(())
//! # }
//! ```
//!
//! # The guard
//!
//! Each statement of the bulk `update` is `{q: {_id}, u: [{$replaceWith: {$cond: [{$eq: ["$$ROOT", "$$o"]}, "$$n",
//! "$$ROOT"]}}], c: {o: <document as read>, n: <migrated document>}}`: the filter is a point lookup on `_id`, and the
//! pipeline replaces the document only when it still equals the one read (every field, nested values, no field
//! added or removed), leaving it untouched otherwise. The values travel as statement constants (`c`, MongoDB 5.0+),
//! which MongoDB does not parse as expressions; a document holding a string or key that starts with `$` is sent
//! inside `$literal` instead, since some servers (SecantusDB) do evaluate `c` and would read `"$x"` as a path. A
//! guard in the filter instead (`$expr` or `$jsonSchema` beside `_id`) is as exact, but servers that cannot combine
//! such a clause with the `_id` lookup scan the collection for each statement; the model's revision is not enough,
//! since an older release, or a write around odm, may change a document without touching it. Like any MongoDB
//! comparison, the guard compares numbers by value: a change from `1` (int) to `1.0` (double) and nothing else is not
//! seen as a change.
//!
//! When every process writing the collection runs this release (or a newer one) — the usual moment to migrate, once
//! the fleet is upgraded — a cheaper guard is exact too: [`Guard::Version`]. Through odm, a document at an older
//! version never changes while staying at it (typed updates refuse older documents, and `update_changes` and
//! `replace_one` store the current version), so the version the document was read at identifies it: each statement is
//! a plain replacement filtered by `{_id, <version key>: <version as read>}` (or the key's absence), as cheap as a
//! hand-written loop's. Writes around odm, or by an older release still running, are not seen by it: keep the
//! default [`Guard::Document`] while they may happen.
//!
//! The document guard has a price: each statement carries the document twice (as read and migrated), and the server compares
//! before it replaces. A document whose two forms together pass MongoDB's statement limit (16 MiB + 16 KiB, so about
//! 8 MiB each) cannot be guarded: it is reported in [`MigrationReport::failed`] with [`Error::UpdateTooLarge`] and
//! left for [`Collection::update_changes`](crate::Collection::update_changes) or a hand-written step.
//!
//! A model that is not versioned has nothing to migrate: awaiting a migration fails with [`Error::NotVersioned`] saying
//! so.
//!
//! [`Collection::migrate`]: crate::Collection::migrate
//! [`Error::UpdateTooLarge`]: crate::Error::UpdateTooLarge
//! [`Error::NotVersioned`]: crate::Error::NotVersioned

pub use crate::base::migrate::{Guard, MigrationFailure, MigrationReport, Throttle};
#[cfg(feature = "driver")]
#[cfg_attr(docsrs, doc(cfg(feature = "driver")))]
pub use crate::driver::migrate::Migration;
