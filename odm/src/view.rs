//! Typed views: read some of a model's fields, checked at compile time.
//!
//! A view is a struct whose fields are some of a model's (or of a struct deriving `Embedded`), named as the model
//! names them. `#[derive(View)]` with `#[odm(of = "Model")]` takes each field's stored key from the model (it is
//! declared once, on the model), checks at compile time that the model stores the field (rule
//! [`view-field`](crate::rules#view-field)) and that the view's type reads the model's (rule
//! [`view-type`](crate::rules#view-type)): the same type, an `Option` of it, or a view of the embedded struct it
//! holds, also inside `Vec`, `Option`, `Box` and map values. It writes the view's `Deserialize` (do not derive
//! it) and its [`View::projection`]: exactly the stored paths the view reads, a nested view's as dotted paths.
//!
//! ```
//! use odm::{Embedded, Model, View, bson::{doc, oid::ObjectId}};
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Embedded, Serialize, Deserialize)]
//! struct Customer {
//!     #[serde(rename = "nm")]
//!     name: String,
//!     #[serde(rename = "em")]
//!     email: String,
//! }
//!
//! #[derive(Model, Serialize, Deserialize)]
//! #[odm(collection = "shop_order")]
//! struct Order {
//!     #[serde(rename = "_id")]
//!     id: ObjectId,
//!     #[serde(rename = "st")]
//!     status: String,
//!     #[serde(rename = "cu")]
//!     customer: Customer,
//!     #[serde(rename = "nt", skip_serializing_if = "Option::is_none")]
//!     note: Option<String>,
//! }
//!
//! /// The customer's name only.
//! #[derive(View)]
//! #[odm(of = "Customer")]
//! struct CustomerName {
//!     name: String,
//! }
//!
//! /// What a list of orders shows.
//! #[derive(View)]
//! #[odm(of = "Order")]
//! struct OrderLine {
//!     id: ObjectId,
//!     status: String,
//!     customer: CustomerName,
//!     note: Option<String>,
//! }
//!
//! assert_eq!(OrderLine::projection(), doc! { "_id": 1, "st": 1, "cu.nm": 1, "nt": 1 });
//! let stored = doc! { "_id": ObjectId::new(), "st": "paid", "cu": { "nm": "Ada" } };
//! let line: OrderLine = odm::bson::deserialize_from_document(stored).unwrap();
//! assert_eq!((line.status.as_str(), line.customer.name.as_str(), line.note), ("paid", "Ada", None));
//! ```
//!
//! Read through one with [`Find::view`](crate::collection::Find::view),
//! [`FindOne::view`](crate::collection::FindOne::view), a pipeline's last stage
//! ([`Pipeline::view`](crate::Pipeline::view)) or a change stream's documents
//! ([`Watch::view`](crate::watch::Watch::view)): the server returns only the view's paths.
//! [`codec::decode_view`](crate::codec::decode_view) decodes a document read any other way.
//!
//! A field the model does not store, or of a type that does not read the model's, is a compile error at the view's
//! field:
//!
//! ```compile_fail
//! # use odm::{Model, View, bson::oid::ObjectId};
//! # use serde::{Deserialize, Serialize};
//! # #[derive(Model, Serialize, Deserialize)]
//! # #[odm(collection = "shop_order")]
//! # struct Order {
//! #     #[serde(rename = "_id")]
//! #     id: ObjectId,
//! #     #[serde(rename = "tot")]
//! #     total: i64,
//! # }
//! #[derive(View)]
//! #[odm(of = "Order")]
//! struct Totals {
//!     total: String, // `Order` stores `total` as `i64` (rule `view-type`)
//! }
//! ```

pub use crate::base::view::{AsView, Boxed, Each, Opt, OptionAdded, OptionKept, Reads, Same, Values, View};
#[cfg(feature = "derive")]
pub use odm_derive::View;
