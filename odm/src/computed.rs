//! Computed fields: a field that holds the sum, the minimum or the maximum of an array's elements, or of one field of
//! them, or the sum of integer fields beside it (`#[odm(sum = "subtotal, shipping")]`), declared on the field
//! itself.
//!
//! ```
//! use odm::{Embedded, Model, Update};
//! use odm::bson::{doc, oid::ObjectId};
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Embedded, Serialize, Deserialize, Clone)]
//! struct Review {
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
//!     #[odm(max_items = 100, counter = "review_count")]
//!     reviews: Vec<Review>,
//!     #[serde(rename = "rc")]
//!     review_count: i32,
//!     #[serde(rename = "st")]
//!     #[odm(sum = "reviews.stars")]
//!     star_total: i64,
//!     #[serde(rename = "bs", skip_serializing_if = "Option::is_none")]
//!     #[odm(max = "reviews.stars")]
//!     best_stars: Option<i32>,
//! }
//!
//! let f = Product::fields();
//! let u = Update::new().push(f.reviews(), Review { stars: 4 }).build().unwrap();
//! // The count, the sum and the maximum follow the new review in the same statement.
//! assert_eq!(
//!     u.update,
//!     doc! { "$inc": { "rc": 1, "st": 4_i64 }, "$max": { "bs": 4 }, "$push": { "rv": { "s": 4 } } }
//! );
//! ```
//!
//! Every typed update that changes the array changes the computed field in the same statement: a push (one element or
//! many, `add_to_set` on a counted array) adds to a sum (`$inc`) and raises a maximum or lowers a minimum (`$max`,
//! `$min`); setting the whole array sets them from its elements; `pull` of one value of a counted set takes it out of a
//! sum; `inc` of a field that a sum of fields adds up adds the same to the sum; a diff ([`crate::Update::diff`]) whose
//! array only grew does as a push does. What would leave a computed field unknown is refused before anything is sent
//! ([`crate::error::Invalid::ComputedUnknown`]): removing elements whose values the update does not know (`pop`,
//! `pull_where`, a removal under a minimum or maximum), `$slice`, an `add_to_set` that may add nothing under a sum, a
//! write to the summarized field of an element, and any write but `inc` to a field a sum of fields adds up. The
//! validator checks each computed field against its array (rule [`computed-in-step`](crate::rules#computed-in-step)),
//! and the schema checker names the documents where one drifted.
//!
//! Sums are of integers, into an `i64`: a sum of doubles cannot be kept exactly (the server sums an array with more
//! precision than one `$inc` after another), so money and scores are summed in integer units. A minimum or maximum
//! is an `Option` of the element's type, absent while the array is empty.

pub use crate::base::computed::{computed_fits, element_key, misfit, Aggregate, Computed};
