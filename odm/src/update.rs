//! Targeted updates typed by the field they target, with array counters kept in step in the same update.
//!
//! ```
//! use odm::{Model, Update, bson::{doc, oid::ObjectId}};
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Model, Serialize, Deserialize)]
//! #[odm(collection = "shop_review")]
//! struct Review {
//!     #[serde(rename = "_id")]
//!     id: ObjectId,
//!     #[serde(rename = "s")]
//!     stars: i32,
//!     #[serde(rename = "vi")]
//!     #[odm(max_items = 1000, counter = "helpful_votes")]
//!     voter_ids: Vec<ObjectId>,
//!     #[serde(rename = "hv")]
//!     helpful_votes: i32,
//! }
//!
//! let f = Review::fields();
//! let voter = ObjectId::new();
//! let u = Update::new().set(f.stars(), 5).add_to_set(f.voter_ids(), voter).build().unwrap();
//! assert_eq!(u.update, doc! { "$set": { "s": 5 }, "$push": { "vi": voter }, "$inc": { "hv": 1 } });
//! // The vote counts only if this voter has not voted yet: the filter says so.
//! assert_eq!(u.guard(), Some(&doc! { "vi": { "$ne": voter } }));
//! ```

pub use crate::base::update::{
    AllowsSlice, BuiltUpdate, DateLike, InsertSettable, Modifiers, NoModifiers, Numeric, Operator, Optional, Sliced,
    Unsliced, Update,
};
