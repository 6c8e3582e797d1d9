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
//! is an `ObjectId`; and it has no other field a document built from an element would lack (other fields are
//! `Option`s).
//!
//! ## Writing: [`PushKeeping`]
//!
//! `PushKeeping::new(&products, &reviews, id, review).await` writes the element twice: as a new document of the
//! overflow model (the full history) and as a `$push` with `$slice` onto the owner's array (the latest N). The
//! embedded array is a cache of the overflow collection's newest documents; every element pushed this way is in
//! the overflow collection exactly once, and concurrent pushes lose nothing (each push is one insert and one atomic
//! `$push`).
//!
//! When the server runs transactions, both writes are one transaction: either both happen or neither. When it does
//! not (a standalone server, as it answers), the overflow document is written first and the push second: a crash
//! between the two leaves the element in the overflow collection and not in the array, so the history is complete
//! and the array misses one element until the next push. Collections bound to a session
//! ([`Collection::with_session`](crate::Collection::with_session)) write through it, overflow first, and start no
//! transaction of their own: inside the caller's transaction both writes are part of it. An owner that does not exist is reported as
//! [`Error::NotFound`](crate::Error::NotFound), and the overflow document written for it is deleted again.
//!
//! ## Reading the rest: [`overflow_of`]
//!
//! [`overflow_of`] reads the overflow documents of one owner, newest first (by `_id`: the overflow documents'
//! `ObjectId`s are made by the pushing client, so the order is the order of the pushes of one process, and of the
//! second they were made in across processes). Declare an index on the overflow model whose first key is the owner
//! field, as above (`index(keys = "product, -id")` serves the filter and the order), or the read scans the collection.

use crate::kind::BsonKind;
use crate::meta::TypeMeta;
use crate::model::Model;
use crate::path::shared::{same_str, stored_alike};
use crate::reference::fit::bounds_cover;
use crate::schema::BsonSchema;
use crate::update::Update;

#[cfg(feature = "driver")]
mod push;
#[cfg(feature = "driver")]
mod read;

#[cfg(feature = "driver")]
#[cfg_attr(docsrs, doc(cfg(feature = "driver")))]
pub use push::{PushKeeping, Pushed};
#[cfg(feature = "driver")]
#[cfg_attr(docsrs, doc(cfg(feature = "driver")))]
pub use read::overflow_of;

/// A model with an array declared `#[odm(max_items = N, keep_last, overflow(model = "O", owner = "…"))]`: the
/// array keeps the latest `N` elements, and the overflow model `O` keeps all of them. Implemented by the derive.
pub trait Subset<O: Model>: Model {
    /// The array's element type.
    type Element: BsonSchema + serde::Serialize;
    /// The Rust name of `O`'s field that holds the owner's `_id`.
    const OWNER: &'static str;

    /// The update that pushes `element` onto the array, keeping the last `N` elements (`$push` with `$each` and
    /// `$slice`), as [`Update::push`] writes it for the array.
    fn push_element(element: Self::Element) -> Update<Self>;
}

/// What does not fit in an overflow declaration, as [`overflow_fits`] finds it.
#[doc(hidden)]
pub mod fault {
    /// The declaration fits.
    pub const NONE: u8 = 0;
    /// The element is not a struct with named fields.
    pub const ELEMENT: u8 = 1;
    /// The overflow model has no field under one of the element's keys.
    pub const MISSING: u8 = 2;
    /// The overflow model stores one of the element's fields as another BSON type.
    pub const TYPE: u8 = 3;
    /// The element may leave a field absent or `null`, and the overflow model may not.
    pub const ABSENT: u8 = 4;
    /// The overflow model bounds one of the element's fields more narrowly.
    pub const BOUNDS: u8 = 5;
    /// The overflow model requires a field that is neither the element's, the owner, nor `_id`.
    pub const EXTRA: u8 = 6;
    /// The overflow model's `_id` is not an `ObjectId`.
    pub const ID: u8 = 7;
}

/// Whether the overflow model's table `overflow` holds documents built from an element of table `element`, its
/// owner field `owner` (Rust name) and a new `ObjectId` `_id` (a [`fault`] code). Used by generated code, in const
/// evaluation.
#[doc(hidden)]
pub const fn overflow_fits(element: Option<&TypeMeta>, overflow: Option<&TypeMeta>, owner: &str) -> u8 {
    let Some(element) = element else { return fault::ELEMENT };
    let Some(overflow) = overflow else { return fault::MISSING };
    if element.fields.is_empty() || !element.variants.is_empty() {
        return fault::ELEMENT;
    }
    let mut i = 0;
    while i < element.fields.len() {
        let e = &element.fields[i];
        let Some(o) = by_key(overflow, e.key) else { return fault::MISSING };
        if !stored_alike(o, e) {
            return fault::TYPE;
        }
        if (e.optional && !o.optional) || (e.nullable && !o.nullable) {
            return fault::ABSENT;
        }
        if !bounds_cover(o, e) {
            return fault::BOUNDS;
        }
        i += 1;
    }
    let mut i = 0;
    while i < overflow.fields.len() {
        let o = &overflow.fields[i];
        if same_str(o.key, "_id") {
            if o.ty.kind as u8 != BsonKind::ObjectId as u8 || o.fixed.is_some() {
                return fault::ID;
            }
        } else if !same_str(o.name, owner) && by_key(element, o.key).is_none() && !o.optional {
            return fault::EXTRA;
        }
        i += 1;
    }
    fault::NONE
}

const fn by_key<'a>(table: &'a TypeMeta, key: &str) -> Option<&'a crate::meta::FieldMeta> {
    let mut i = 0;
    while i < table.fields.len() {
        if same_str(table.fields[i].key, key) {
            return Some(&table.fields[i]);
        }
        i += 1;
    }
    None
}

/// The stored key of `O`'s owner field: the Rust name [`Subset::OWNER`] gives, as `O`'s field table stores it.
#[cfg(feature = "driver")]
fn owner_key<M: Subset<O>, O: Model>() -> &'static str {
    O::type_meta().and_then(|t| crate::reference::fit::by_name(t, M::OWNER)).map_or(M::OWNER, |f| f.key)
}

#[cfg(test)]
mod tests;
