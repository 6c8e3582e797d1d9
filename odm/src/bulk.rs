//! Typed bulk writes: many inserts, updates and deletes of one model in few round trips.
//!
//! Each operation is built as the single-document call builds it — inserts encoded and size-checked, updates from
//! typed [`Update`]s with their counters, guards, revision bumps and variant discriminators, the shard-key check of
//! single-document writes — and every one is checked before the first is sent. Consecutive operations of one kind
//! travel as one `insert`, `update` or `delete` command, split to stay under the server's limits (100,000
//! statements, 16 MiB). Ordered (the default), the first failure stops the rest; unordered, every operation is tried
//! and the server may apply them in any order.
//!
//! Failures come back per operation: [`Error::Bulk`] lists each failed operation by its index in the order you
//! added them, with its error mapped like the single-document call's (a document refused by the validator names
//! the Rust field), beside the counts of what was applied.
//!
//! ```no_run
//! # use odm::{Collection, Model, Update, bson::oid::ObjectId};
//! # #[derive(Model, serde::Serialize, serde::Deserialize)]
//! # #[odm(collection = "shop_stock")]
//! # struct Stock { #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "q")] quantity: i32 }
//! # async fn demo(stock: Collection<Stock>, a: ObjectId, b: ObjectId) -> odm::error::Result<()> {
//! let f = Stock::fields();
//! let result = stock
//!     .bulk()
//!     .insert(&Stock { id: ObjectId::new(), quantity: 10 })
//!     .update_one(f.id().eq(a), Update::new().inc(f.quantity(), -1))
//!     .delete_one(f.id().eq(b))
//!     .await?;
//! assert_eq!((result.inserted, result.deleted), (1, 1));
//! # Ok(()) }
//! ```
//!
//! [`Update`]: crate::Update
//! [`Error::Bulk`]: crate::Error::Bulk

pub use crate::base::error::BulkResult;
#[doc(no_inline)]
pub use crate::base::error::{BulkError, BulkFailure};
#[cfg(feature = "driver")]
#[cfg_attr(docsrs, doc(cfg(feature = "driver")))]
pub use crate::driver::bulk::Bulk;
