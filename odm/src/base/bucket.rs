//! `odm::bucket` without a server (users read its documentation on the module, `src/bucket.rs`): the bucket pattern: one document per key (and period) holding a bounded, counted array of readings, instead of one document per reading.

pub(crate) mod layout;

pub use layout::{Bucket, BucketFields, BucketLayout};
