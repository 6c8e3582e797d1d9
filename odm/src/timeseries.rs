//! Time-series collections: MongoDB's own storage for measurements over time, declared on a model with
//! `#[odm(timeseries(time = "at", meta = "sensor", granularity = "minutes", expire_after = 86400))]`.
//!
//! The server groups measurements of one series (one `meta` value) and one time span into internal buckets by
//! itself, compressed, and removes them `expire_after` seconds after their time when declared. It is the
//! server-side alternative to declaring a [bucket](crate::bucket) model: writes are plain inserts, one document per
//! measurement; what a bucket model offers in exchange is a document per key and period that odm controls (its
//! size, its counter, reading a period in one document) on any server.
//!
//! The derive checks the declaration (rule [`timeseries-fields`](crate::rules#timeseries-fields)): the time field
//! is a date present in every document, the meta field exists and is not an array, and the model is not capped.
//! [`SchemaSync`](crate::SchemaSync) creates the collection with `timeseries` (and `expireAfterSeconds`). A time
//! series collection cannot be converted from or to a plain one, nor its time or meta field changed: sync reports
//! such a difference and leaves it to a DBA (a new collection and a copy). A coarser granularity is the one change
//! the server applies in place (`collMod`), and sync applies it; a finer one is reported.
//!
//! ```
//! use odm::{Model, bson::{oid::ObjectId, DateTime}, timeseries::{Granularity, TimeSeries}};
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Model, Serialize, Deserialize)]
//! #[odm(collection = "iot_measurement")]
//! #[odm(timeseries(time = "at", meta = "sensor", granularity = "minutes", expire_after = 86400))]
//! struct Measurement {
//!     #[serde(rename = "_id")]
//!     id: ObjectId,
//!     #[serde(rename = "t")]
//!     at: DateTime,
//!     #[serde(rename = "s")]
//!     sensor: String,
//!     #[serde(rename = "v")]
//!     value: f64,
//! }
//!
//! let ts = Measurement::TIMESERIES.unwrap();
//! assert_eq!(ts, TimeSeries { time: "t", meta: Some("s"), granularity: Some(Granularity::Minutes), expire_after: Some(86400) });
//! ```

pub use crate::base::timeseries::{Granularity, TimeSeries};
