//! The document-size budget: the most bytes a stored document of a model can take, computed at compile time from the
//! bounds its types declare (rule [`model-size`](crate::rules#model-size)).
//!
//! Every type says what it knows about the stored size of its values in [`BsonSchema::SIZE`]: a fixed number of
//! bytes (`i32`: 4, `ObjectId`: 12), a string or an array whose bound the field declares (`max_len`, `max_items`), or
//! no bound at all (a map, a `bson::Document`, a `mixed` value). A derived struct's size is read from its field table
//! ([`document`]), so it costs no generated code: BSON's overhead (the 4-byte length and trailing 0 of a document,
//! each element's type byte and key) plus each field's worst case, the string bound counted at 4 bytes a character
//! (the validator's `maxLength` counts code points, and UTF-8 takes up to 4 bytes for one). A model whose worst case
//! is over [`DOCUMENT_LIMIT`] is refused at compile time on its largest field, unless it says
//! `#[odm(size_budget = "warn")]`; [`Model::size_budget`](crate::Model::size_budget) gives the budget at run time,
//! and every sync report lists it per model.
//!
//! ```
//! use odm::{Model, size::Budget};
//! #[derive(Model, serde::Serialize, serde::Deserialize)]
//! #[odm(collection = "shop_note")]
//! struct Note {
//!     #[serde(rename = "_id")]
//!     id: odm::bson::oid::ObjectId,
//!     #[serde(rename = "t")]
//!     #[odm(max_len = 10)]
//!     text: String,
//! }
//! // 4 + (1 + 4 + 12) + (1 + 2 + 4 + 4·10 + 1) + 1
//! assert_eq!(Note::size_budget(), Budget::AtMost(70));
//! assert_eq!(Note::size_budget().to_string(), "at most 70 bytes");
//! ```
//!
//! [`BsonSchema::SIZE`]: crate::BsonSchema::SIZE

#[doc(hidden)]
pub use crate::base::meta::tables::{adjacent, of_table, one_of, oversize, tagged, Refusal};
pub use crate::base::meta::tables::{document, field_value};
pub use crate::base::size::{array_bytes, string_bytes, Budget, Reason, Size, Unbounded, DOCUMENT_LIMIT};
