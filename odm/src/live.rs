//! What is live on the server, as odm's types: each collection's validator, validation settings, options and
//! indexes, read the way [`SchemaSync`](crate::SchemaSync) reads them (one `listCollections`, one `listIndexes` per
//! collection, nothing else), so what an operator lists is what a sync compares with the models.
//!
//! ```no_run
//! # #[derive(odm::Model, serde::Serialize, serde::Deserialize)]
//! # #[odm(collection = "shop_order", index(keys = "status"))]
//! # struct Order { #[serde(rename = "st")] status: String }
//! # async fn demo(db: odm::mongodb::Database) -> odm::error::Result<()> {
//! use odm::Collection;
//! // One model's collection (`None` when it does not exist).
//! if let Some(live) = Collection::<Order>::new(&db).live().await? {
//!     println!("{}: level {:?}, {} indexes", live.name, live.options.validation_level, live.indexes.len());
//!     for index in &live.indexes {
//!         println!("  {} {} unique={} ttl={:?}", index.name, index.keys, index.unique, index.expire_after_seconds);
//!     }
//! }
//! // Every collection of the database, in name order.
//! for live in odm::live::collections(&db).await? {
//!     println!("{} ({:?}): validator {:?}", live.name, live.kind, live.options.validator);
//! }
//! # Ok(()) }
//! ```
//!
//! Each read is an operation like any other: a span of target `odm::op` ([`crate::observe`]).

pub use crate::driver::live::{collection, collections, LiveCollection, LiveKind, LiveOptions};
