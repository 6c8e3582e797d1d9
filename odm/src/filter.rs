//! Filters, sorts and projections over typed paths.
//!
//! Every condition names a field through its [`Path`] (so short keys cannot be bypassed) and takes a value of the
//! field's own type, encoded the way the field is stored. A value is always data: a document value is compared
//! with `$eq`, so keys chosen at run time can never turn into operators.
//!
//! ```
//! use odm::{Model, Filter, bson::{doc, oid::ObjectId}};
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Model, Serialize, Deserialize)]
//! #[odm(collection = "shop_review")]
//! struct Review {
//!     #[serde(rename = "_id")]
//!     id: ObjectId,
//!     #[serde(rename = "s")]
//!     stars: i32,
//!     #[serde(rename = "t")]
//!     #[odm(max_items = 10)]
//!     tags: Vec<String>,
//! }
//!
//! let f = Review::fields();
//! let filter = f.stars().gte(4).and(f.tags().contains("fast"));
//! assert_eq!(filter.into_document().unwrap(), doc! { "s": { "$gte": 4 }, "t": "fast" });
//! ```
//!
//! Two fields of one document compare with `eq_field`, `ne_field`, `lt_field`, `lte_field`, `gt_field` and
//! `gte_field` (`f.shipped_qty().lt_field(f.ordered_qty())`), sent as `$expr`; the fields must hold comparable types
//! ([`Comparable`]) and name one value per document ([`OneValue`]). No index serves the comparison itself.
//!
//! [`Path`]: crate::path::Path

pub use crate::base::filter::{Comparable, Filter, OneValue, Projection, Sort};
