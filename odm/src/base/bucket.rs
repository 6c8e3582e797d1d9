//! The bucket pattern as declared: the [`Bucket`] trait the derive implements, and the stored layout read from the
//! model's field table. Adding a reading is `crate::driver::bucket`. Users read the docs at `odm::bucket`
//! (src/bucket.rs).

use crate::base::kind::BsonKind;
use crate::base::meta::{FieldMeta, TypeMeta};
use crate::base::model::Model;
use crate::base::schema::BsonSchema;
use serde::Serialize;

/// The declaration of a bucket model, as written: `bucket(key = "sensor, day", items = "readings")` gives
/// `key: &["sensor", "day"], items: "readings"` (Rust field names). Generated.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BucketFields {
    /// The key fields' Rust names, in declared order.
    pub key: &'static [&'static str],
    /// The counted array's Rust name.
    pub items: &'static str,
}

/// A model declared a bucket of readings (`#[odm(bucket(key = "…", items = "…"))]`): implemented by the derive,
/// which checks the declaration (rule [`bucket-shape`](crate::rules#bucket-shape)). See the [module](crate::bucket)
/// docs.
pub trait Bucket: Model {
    /// One reading: the element type of the bucket's array.
    type Reading: BsonSchema + Serialize + Send;

    /// The declaration, as written.
    const BUCKET: BucketFields;

    /// The stored layout of the bucket: its key, array and counter keys and its size, read from the model's field
    /// table.
    fn layout() -> BucketLayout {
        BucketLayout::of(Self::type_meta(), Self::BUCKET)
    }
}

/// Where a bucket model stores what: stored keys and the bucket size (see [`Bucket::layout`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct BucketLayout {
    /// The key fields: `(Rust name, stored key)`, in declared order.
    pub key: Vec<(&'static str, &'static str)>,
    /// The stored key of the array of readings.
    pub items: &'static str,
    /// The stored key of its counter.
    pub counter: &'static str,
    /// True when the counter is stored as a `long` (its increments are then `long` too, so a bucket the upsert
    /// opens stores the counter with the type the validator expects).
    pub counter_long: bool,
    /// The bucket size: the array's `max_items`.
    pub size: i64,
    /// The fields computed from the readings (`#[odm(sum = "…")]`, `min`, `max`), which each reading's upsert keeps
    /// in step.
    pub computes: &'static [crate::base::computed::Computed],
}

impl BucketLayout {
    /// The layout of the model described by `meta`, declared by `fields`. The derive has checked that every named
    /// field exists, that the array is counted and bounded; a table that says otherwise is a bug of the derive.
    fn of(meta: Option<&'static TypeMeta>, fields: BucketFields) -> Self {
        let meta = meta.expect("a bucket model is a struct with a field table");
        let field = |name: &str| -> &'static FieldMeta {
            meta.fields.iter().find(|f| f.name == name).expect("the derive checked the bucket's fields")
        };
        let items = field(fields.items);
        let counter = &meta.fields[items.counter.expect("the derive checked that the bucket's array is counted")];
        let size = items
            .keywords
            .iter()
            .find(|(k, _)| *k == "maxItems")
            .map(|&(_, n)| n)
            .expect("the derive checked that the bucket's array is bounded");
        BucketLayout {
            key: fields.key.iter().map(|name| (*name, field(name).key)).collect(),
            items: items.key,
            counter: counter.key,
            counter_long: counter.ty.kind == BsonKind::Long,
            size,
            computes: items.computes,
        }
    }
}
