//! Typed field paths: each carries its stored key path (short keys included) and the Rust type of the value there.
//!
//! `#[derive(Model)]` generates `Order::fields()`, a tree of paths mirroring the struct. A path knows its root model
//! `R`, its value type `W` and an [`Access`] marker `A` that says which writes it accepts: `_id`, shard-key fields,
//! array counters and the revision have no setter at all, and counted arrays only offer operations whose effect on
//! the length is known.
//!
//! The path types themselves know stored keys only, so the schema can name them; what needs a stored type's
//! [`BsonSchema`](crate::BsonSchema) (encoding by type, paths to elements and entries) is added here, and filtered
//! elements (`$[id]`, whose condition is a filter) in [`crate::filter`].
//!
//! ```
//! use odm::{Model, Embedded, bson::oid::ObjectId};
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Embedded, Serialize, Deserialize)]
//! struct Line {
//!     #[serde(rename = "p")]
//!     price: i64,
//! }
//!
//! #[derive(Model, Serialize, Deserialize)]
//! #[odm(collection = "order_header")]
//! struct Order {
//!     #[serde(rename = "_id")]
//!     id: ObjectId,
//!     #[serde(rename = "it")]
//!     #[odm(max_items = 100)]
//!     items: Vec<Line>,
//! }
//!
//! let f = Order::fields();
//! assert_eq!(f.items().key(), "it");
//! assert_eq!(f.items().each().price().key(), "it.$[].p");
//! assert_eq!(f.items().at(2).price().key(), "it.2.p");
//! ```

#[doc(hidden)]
pub use crate::base::path::shared;
pub use crate::base::path::{
    Access, ArrayFilter, ArrayNode, ArrayWritable, AsPath, ComputedField, Counted, CountedSet, CounterField, Encoder,
    EncoderInput, Fields, IdField, InArray, IsPath, MapNode, Object, Path, PathNode, Plain, PullByValue, Pushable,
    Queryable, RawPath, RevisionField, Root, Set, Settable, ShardKeyField, Uncounted, Variant, Writable,
};
pub use crate::base::schema::paths::{
    ArrayLike, ElemNode, FieldNode, FieldNodeOf, FieldPathOf, MapLike, VariantNodeOf, VariantPathOf,
};
