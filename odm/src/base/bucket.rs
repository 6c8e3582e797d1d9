//! The bucket pattern as declared: the `Bucket` trait the derive implements and the stored layout read from the
//! model's field table (`layout`). Adding a reading is `crate::driver::bucket`. Users read the docs at `odm::bucket`
//! (src/bucket.rs).

pub(crate) mod layout;

pub use layout::{Bucket, BucketFields, BucketLayout};
