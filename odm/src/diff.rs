//! Diff updates: from an old and a new value, the minimal targeted update. Only changed paths are written; elements
//! appended to an array become `$push`, and a counter that grew with its array becomes `$inc` in the same update.
//!
//! The walk compares Rust values field by field (through [`BsonSchema::diff`](crate::BsonSchema::diff)) and serializes
//! only what changed, so diffing two large values with one change costs less than serializing one of them.
//!
//! ```
//! use odm::{Model, Update, bson::{doc, oid::ObjectId}};
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Model, Serialize, Deserialize, Clone)]
//! #[odm(collection = "shop_review")]
//! struct Review {
//!     #[serde(rename = "_id")]
//!     id: ObjectId,
//!     #[serde(rename = "s")]
//!     stars: i32,
//!     #[serde(rename = "b")]
//!     body: String,
//!     #[serde(rename = "vi")]
//!     #[odm(max_items = 1000, counter = "helpful_votes")]
//!     voter_ids: Vec<ObjectId>,
//!     #[serde(rename = "hv")]
//!     helpful_votes: i32,
//! }
//!
//! let old = Review { id: ObjectId::new(), stars: 3, body: "ok".into(), voter_ids: vec![], helpful_votes: 0 };
//! let mut new = old.clone();
//! let voter = ObjectId::new();
//! new.stars = 4;
//! new.voter_ids.push(voter);
//! new.helpful_votes += 1;
//! let u = Update::diff(&old, &new).build().unwrap();
//! assert_eq!(u.update, doc! { "$set": { "s": 4 }, "$inc": { "hv": 1 }, "$push": { "vi": voter } });
//! ```

pub use crate::base::diff::{by_value, Diff, DiffPath};
pub use crate::base::schema::diffs::{by_eq, map, sequence};
