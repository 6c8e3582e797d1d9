//! Startup sync: one call brings the database in line with the models, so schema changes ship with the code.
//!
//! ```no_run
//! # async fn demo(client: odm::mongodb::Client) -> odm::error::Result<()> {
//! # #[derive(odm::Model, serde::Serialize, serde::Deserialize)]
//! # #[odm(db = "shop", collection = "order_header")]
//! # struct Order { #[serde(rename = "n")] name: String }
//! let report = odm::SchemaSync::new(&client)
//!     .model::<Order>()
//!     .mode(odm::SyncMode::CreateMissing)
//!     .await?;
//! println!("{report}");
//! # Ok(()) }
//! ```
//!
//! A sync first reads the database — one `listCollections` per database, filtered to the models' collections, and
//! one `listIndexes` per existing collection, a few at a time, nothing else — and builds a [`Plan`], in model
//! order. Before that it asks the server `hello` once for the connection checklist ([`crate::connection`]): the
//! report lists the connection's settings that contradict what the models need ([`SyncReport::connection`]), in
//! every mode (give it the client's options with [`SchemaSync::client_options`] so the pool size and `retryWrites`
//! are checked too). Then, by [`SyncMode`]:
//! - [`SyncMode::Verify`] changes nothing and fails with [`Error::Drift`] if the plan is not empty;
//! - [`SyncMode::CreateMissing`] creates missing collections (with validator, level, action, capped options) and
//!   missing indexes, and reports the rest;
//! - [`SyncMode::Apply`] also updates validators (`collMod`), changes TTL seconds and `hidden` in place, rebuilds
//!   owned indexes whose definition changed, and handles stale owned indexes as asked ([`StaleHandling`]). A changed
//!   validator reaches a collection holding documents as [`ValidatorRollout`] says: staged, or direct, which first
//!   counts the stored documents it refuses and tightens over them only when asked
//!   ([`ValidatorRollout::DirectAnyway`]).
//!
//! Ownership: indexes are matched by structure (key pattern and identity options), and odm owns an index when it
//! recorded creating it, whatever its name: one document per index in `<db>.odm_index`, written after the
//! `createIndexes`, deleted after the `dropIndexes` (see [`ownership`](crate::sync::plan::ownership) for the record and
//! why it is a collection). An index odm does not own is never changed or dropped; a conflict with one is reported,
//! not "fixed", and one named like odm's (`idx_…`) that no model declares is reported as
//! [`Action::UnownedIndex`]. Indexes created before odm kept records are odm's only once adopted
//! ([`SchemaSync::adopt_indexes`]). Collections no model names are never read or touched, except odm's own
//! metadata: the index records and the leases of versioned collections (below).
//!
//! Many replicas may sync at once: a collection or index created by a concurrent sync counts as done
//! (`NamespaceExists`, `IndexBuildAlreadyInProgress` and identical-index replies are expected outcomes).
//!
//! ## Sharding
//!
//! On a sharded cluster (a `mongos`: `hello` answers `msg: "isdbgrid"`, asked once, only when a model declares a
//! shard key), a model's `shard_key` becomes [`Action::ShardCollection`]: `enableSharding` and `shardCollection`
//! against `admin`, ranged or hashed as declared. A collection the sync creates is sharded even in
//! [`SyncMode::CreateMissing`]; an existing one only in [`SyncMode::Apply`] (its documents then move between
//! shards), and one sharded by another key is [`Action::ShardKeyMismatch`], left to a person. On any other server
//! the key is a note ([`Action::NotACluster`], not drift) that shows the command a cluster would get. To export a
//! cluster's plan from elsewhere, plan with [`Topology::Sharded`]: its mongosh script runs the sharding commands
//! against `admin` like any other step.
//!
//! ## Versioned models: rollouts and fleets
//!
//! A versioned model's validator names its version (`title: "version 3"`). While the collection holds documents of
//! older versions, the validator sync wants is [`crate::version::accepting_older`] (every version the model reads,
//! each in its own shape); once none are left, the current version's alone ([`Model::validator`]). Both reach the
//! collection through the [`ValidatorRollout`] asked for.
//!
//! Replicas of two versions of an application may start together. A binary whose model is older than the live
//! validator's version changes nothing about that collection — neither validator nor index — and reports
//! [`Action::CollectionAhead`] (information, not drift: it keeps serving). Syncs that change a versioned collection
//! take turns through a lease (one document per collection in `<db>.odm_sync_lock`, the one collection a sync writes
//! that no model names) and plan that collection again once they hold it, so an older binary that planned before a
//! newer one synced sees the collection ahead instead of undoing it. Declare the version from a model's first
//! release (`version = 1`): a binary without one cannot tell that a collection is ahead.
//!
//! Documents not at the current version that the validator of every version the model reads refuses (a version key
//! stored as a double or a long, a shape of no listed version) keep older documents from ever running out, so the
//! validator could never tighten: while older documents remain, sync looks for them and reports them as
//! [`Action::UnreadableDocuments`] (how many, the first `_id`s), drift in every mode.
//!
//! An exported plan ([`Plan::to_mongosh`]) cannot take the lease nor plan again, so it checks what the plan
//! assumed ([`Plan::preconditions`]) right before each step on a versioned collection: that no newer release synced
//! it since, and, before a validator that tightens to the current version alone, that no document of another
//! version was written since (a replica of the older release still running, say). When one no longer holds, the
//! script prints `FAILED: …` and exits with code 1 before the step.
//!
//! One collection has one model, except for versions of one model: a model listed in another's `older(…)` may be
//! given to the same sync (the newer one stands for both); two unrelated models on one collection are refused with
//! [`Error::SharedCollection`].
//!
//! [`Plan`]: crate::sync::plan::Plan
//! [`Plan::preconditions`]: crate::sync::plan::Plan::preconditions
//! [`Plan::to_mongosh`]: crate::sync::plan::Plan::to_mongosh
//! [`StaleHandling`]: crate::sync::plan::StaleHandling
//! [`Action::CollectionAhead`]: crate::sync::plan::Action::CollectionAhead
//! [`Action::NotACluster`]: crate::sync::plan::Action::NotACluster
//! [`Action::UnownedIndex`]: crate::sync::plan::Action::UnownedIndex
//! [`Action::ShardCollection`]: crate::sync::plan::Action::ShardCollection
//! [`Action::ShardKeyMismatch`]: crate::sync::plan::Action::ShardKeyMismatch
//! [`Action::UnreadableDocuments`]: crate::sync::plan::Action::UnreadableDocuments
//! [`Error::Drift`]: crate::Error::Drift
//! [`Error::SharedCollection`]: crate::Error::SharedCollection
//! [`Model::validator`]: crate::Model::validator

pub use crate::base::plan;
pub use crate::base::plan::validator_diff::{validator_changes, ChangeKind, ValidatorChange};
pub use crate::base::sync::{ModelSpec, Outcome, SyncMode, SyncReport, Topology, ValidatorRollout};
#[cfg(feature = "driver")]
#[cfg_attr(docsrs, doc(cfg(feature = "driver")))]
pub use crate::driver::sync::SchemaSync;
