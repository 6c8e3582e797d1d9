//! The subset pattern: an array keeps the latest elements embedded for fast reads, and another model's collection
//! keeps every element, so nothing a push cuts is lost.
//!
//! Declare it on the array, with the bound it keeps and the model that holds the rest:
//!
//! ```
//! use odm::{Embedded, Model, bson::oid::ObjectId};
//! use serde::{Deserialize, Serialize};
//!
//! /// A review as the product embeds it.
//! #[derive(Embedded, Serialize, Deserialize, Clone)]
//! struct ReviewText {
//!     #[serde(rename = "by")]
//!     author: String,
//!     #[serde(rename = "s")]
//!     stars: i32,
//! }
//!
//! #[derive(Model, Serialize, Deserialize)]
//! #[odm(collection = "shop_product")]
//! struct Product {
//!     #[serde(rename = "_id")]
//!     id: ObjectId,
//!     #[serde(rename = "rv")]
//!     #[odm(max_items = 10, keep_last, overflow(model = "Review", owner = "product"))]
//!     reviews: Vec<ReviewText>,
//! }
//!
//! /// Every review of every product: the element's fields, stored alike, and the product's `_id`.
//! #[derive(Model, Serialize, Deserialize)]
//! #[odm(collection = "shop_review", index(keys = "product, -id"))]
//! struct Review {
//!     #[serde(rename = "_id")]
//!     id: ObjectId,
//!     #[serde(rename = "pr")]
//!     product: ObjectId,
//!     #[serde(rename = "by")]
//!     author: String,
//!     #[serde(rename = "s")]
//!     stars: i32,
//! }
//! ```
//!
//! The compiler checks the declaration (rule [`array-overflow`](crate::rules#array-overflow)): the array has
//! `max_items` and `keep_last`; the overflow model stores each field of the element under the same key, as the same
//! BSON type, within bounds at least as wide; its owner field stores the owner's `_id` as the owner does; its `_id`
//! is an `ObjectId`; it has no other field a document built from an element would lack (other fields are
//! `Option`s); and an index of it (not partial) starts with the owner field.
//!
//! ## Writing: [`PushKeeping`]
//!
//! `PushKeeping::new(&products, &reviews, id, review).await` writes the element twice: as a new document of the
//! overflow model (the full history) and as a `$push` with `$slice` onto the owner's array (the latest N). The
//! embedded array is a cache of the overflow collection's newest documents; every element pushed this way is in
//! the overflow collection exactly once, and concurrent pushes lose nothing (each push is one insert and one atomic
//! `$push`). What the owner keeps about every element, which the array cannot tell once it cuts its oldest (a count,
//! a sum, a maximum), goes along with the push in its statement:
//! [`PushKeeping::also`](PushKeeping::also) (as [`AddReading::also`](crate::bucket::AddReading::also) for buckets).
//!
//! When the server runs transactions, both writes are one transaction: either both happen or neither. When it does not
//! (a standalone server, as it answers), the overflow document is written first and the push second: a crash between
//! the two leaves the element in the overflow collection and not in the array, so the history is complete and only the
//! array lacks it (a cache of the latest elements, which later pushes move past it). Collections bound to a session
//! ([`Collection::with_session`](crate::Collection::with_session)) write through it, overflow first, and start no
//! transaction of their own: inside the caller's transaction both writes are part of it. An owner that does not exist
//! is reported as [`Error::NotFound`](crate::Error::NotFound), and the overflow document written for it is deleted
//! again.
//!
//! A plain [`Update::push`](crate::Update::push) (or `push_each`, `add_to_set`) onto the array compiles, but is
//! refused before sending ([`Invalid::OverflowPush`](crate::error::Invalid::OverflowPush)): it would cut without
//! writing the overflow collection. So is a diff ([`Collection::update_changes`](crate::Collection::update_changes))
//! whose values differ in the array or an element of it
//! ([`Invalid::OverflowRewrite`](crate::error::Invalid::OverflowRewrite)). Push through [`PushKeeping`] to keep
//! every element.
//!
//! ## Reading the rest: [`overflow_of`]
//!
//! [`overflow_of`] reads the overflow documents of one owner, newest first (by `_id`: the overflow documents'
//! `ObjectId`s are made by the pushing client, so the order is the order of the pushes of one process, and of the
//! second they were made in across processes). The overflow model declares an index whose first key is the owner
//! field, as above (`index(keys = "product, -id")` serves the filter and the order).

pub use crate::base::subset::Subset;
#[doc(hidden)]
pub use crate::base::subset::{fault, overflow_fits, owner_indexed};
#[cfg(feature = "driver")]
#[cfg_attr(docsrs, doc(cfg(feature = "driver")))]
pub use crate::driver::subset::{overflow_of, PushKeeping, Pushed};
