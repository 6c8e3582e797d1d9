//! The bucket pattern: one document per key (and period) holding a bounded, counted array of readings, instead of
//! one document per reading. Fewer documents, smaller indexes, and a reader gets a period's readings in one
//! document.
//!
//! A model declares itself a bucket with `#[odm(bucket(key = "sensor, day", items = "readings"))]`: `key` names the
//! fields that tell buckets apart (a period field, such as the day, is one of them), `items` the array of
//! readings. The array is bounded and counted (`#[odm(max_items = N, counter = "…")]`): its `max_items` is the bucket
//! size, and its counter says how full a bucket is. The derive checks the declaration at compile time (rule
//! [`bucket-shape`](crate::rules#bucket-shape)): the key fields exist and hold one value each, the array is counted
//! and bounded, every other field may be absent (a bucket is opened from its key and first reading alone), and an
//! index on the key fields followed by the counter is declared, so finding a key's open bucket reads one index
//! entry (the index is declared, not added behind the model's back: it shows in the reviewed index list and
//! counts toward the model's index ceiling).
//!
//! [`AddReading`] adds one reading in one statement: an upsert
//! `update_one({<key…>, <counter>: {$lt: size}}, {$push: {<items>: reading}, $inc: {<counter>: 1}}, upsert)`. It
//! fills the key's bucket that has room; when every bucket of the key is full the filter matches none, and the
//! upsert opens the next bucket, its key taken from the filter's equalities. The array and its counter change in
//! the same statement, so the validator's `size(items) == counter` holds in every bucket, and the counter
//! condition means no bucket ever holds more than `size` readings.
//!
//! Fields the bucket keeps about its readings (the first and last time, a sum) are kept in the same statement with
//! [`AddReading::also`]: `.also(Update::new().min(f.first(), at).max(f.last(), at).inc(f.total(), v))`.
//!
//! The statement passes the checks of every typed upsert before it is sent: on a sharded bucket the key must hold
//! the whole shard key ([`crate::shard`]), the statement must fit the server's limit, a revision
//! ([`Model::REVISION`](crate::Model::REVISION)) grows by one. A versioned bucket model opens each bucket at the
//! current version; while it still reads older versions only current buckets are filled (an older bucket of the key
//! with room is [`Error::NotMigrated`](crate::Error::NotMigrated): migrate first).
//!
//! **Concurrent writers.** Two writers that find a key's buckets all full at the same moment both open one: the key
//! then has two partly filled buckets, which later readings fill in turn. No reading is lost and no bucket
//! overfills; what is not guaranteed is that a key has at most one bucket with room, so readers gather a key's
//! readings from all its buckets (`find` on the key), never assume `ceil(n / size)` buckets.
//!
//! ```
//! use odm::{bucket::Bucket, Embedded, Model, bson::{oid::ObjectId, DateTime}};
//! use serde::{Deserialize, Serialize};
//!
//! /// One measurement.
//! #[derive(Embedded, Serialize, Deserialize)]
//! struct Reading {
//!     #[serde(rename = "t")]
//!     at: DateTime,
//!     #[serde(rename = "v")]
//!     value: f64,
//! }
//!
//! /// Up to 200 readings of one sensor on one day.
//! #[derive(Model, Serialize, Deserialize)]
//! #[odm(collection = "iot_reading_bucket")]
//! #[odm(bucket(key = "sensor, day", items = "readings"))]
//! #[odm(index(keys = "sensor, day, count"))]
//! struct SensorDay {
//!     #[serde(rename = "_id")]
//!     id: ObjectId,
//!     #[serde(rename = "s")]
//!     sensor: String,
//!     #[serde(rename = "d")]
//!     day: DateTime,
//!     #[serde(rename = "r")]
//!     #[odm(max_items = 200, counter = "count")]
//!     readings: Vec<Reading>,
//!     #[serde(rename = "n")]
//!     count: i32,
//! }
//!
//! let layout = SensorDay::layout();
//! assert_eq!((layout.items, layout.counter, layout.size), ("r", "n", 200));
//! ```
//!
//! With a [`Collection`](crate::Collection) (feature `driver`):
//!
//! ```no_run
//! # use odm::{bucket::Bucket, Embedded, Model, bson::{oid::ObjectId, DateTime}};
//! # #[derive(Embedded, serde::Serialize, serde::Deserialize)]
//! # struct Reading { #[serde(rename = "t")] at: DateTime, #[serde(rename = "v")] value: f64 }
//! # #[derive(Model, serde::Serialize, serde::Deserialize)]
//! # #[odm(collection = "iot_reading_bucket", bucket(key = "sensor, day", items = "readings"))]
//! # #[odm(index(keys = "sensor, day, count"))]
//! # struct SensorDay {
//! #     #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "s")] sensor: String,
//! #     #[serde(rename = "d")] day: DateTime,
//! #     #[serde(rename = "r")] #[odm(max_items = 200, counter = "count")] readings: Vec<Reading>,
//! #     #[serde(rename = "n")] count: i32,
//! # }
//! # async fn run(buckets: odm::Collection<SensorDay>, day: DateTime) -> odm::error::Result<()> {
//! use odm::bucket::AddReading;
//! let f = SensorDay::fields();
//! let key = f.sensor().eq("s-17").and(f.day().eq(day));
//! let added = AddReading::new(&buckets, key, Reading { at: DateTime::now(), value: 21.5 }).await?;
//! if added.opened.is_some() {
//!     println!("this reading opened a new bucket");
//! }
//! # Ok(()) }
//! ```

pub use crate::base::bucket::{Bucket, BucketFields, BucketLayout};
#[cfg(feature = "driver")]
#[cfg_attr(docsrs, doc(cfg(feature = "driver")))]
pub use crate::driver::bucket::{AddReading, AddedReading};
