//! Typed change streams: the inserts, updates, replacements and deletions of a model's collection, as they happen,
//! decoded as the model (older versions migrated), resumable from any event's token.
//!
//! ```no_run
//! # use odm::{Collection, Model, watch::Change, bson::oid::ObjectId};
//! # use futures_util::TryStreamExt;
//! # #[derive(Model, serde::Serialize, serde::Deserialize)]
//! # #[odm(collection = "shop_order")]
//! # struct Order { #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "t")] total: i64 }
//! # async fn demo(orders: Collection<Order>) -> odm::error::Result<()> {
//! let mut changes = orders.watch().full_document().stream().await?;
//! while let Some(event) = changes.try_next().await? {
//!     match event.change {
//!         Change::Insert { value, .. } => println!("new order: {}", value.total),
//!         Change::Update { id, set, value: Some(Ok(order)), .. } => println!("{id} changed: {set} (now {})", order.total),
//!         Change::Update { id, set, .. } => println!("{id} changed: {set}"),
//!         Change::Delete { id } => println!("{id} deleted"),
//!         _ => {}
//!     }
//!     // Keep `event.token` to resume later with `.resume_after(token)`.
//! }
//! # Ok(()) }
//! ```
//!
//! Change streams need a replica set or a sharded cluster.
//!
//! A stream that needs a few fields of large documents carries only those: `.view::<V>()` (a view of the model, see
//! [`crate::view`]) narrows each event's document to the view's paths with a `$project` stage, and decodes it as
//! `V` (`ChangeEvent<V>`).
//!
//! ## Documents that do not decode
//!
//! Another program may write a document the model does not read (a string where the model has a number, say). An
//! insert or replacement of one comes out of the stream as
//! [`Error::UndecodableChange`](crate::Error::UndecodableChange), which carries the event's token, the document's
//! `_id`, the operation and the raw document beside the decode error. The stream goes on after it, so a consumer can
//! record the event and read on; a consumer that stops on it can resume after its token, past it. An update whose
//! document after the update does not decode is not an error: its `_id` and changed paths are read as usual, and its
//! `value` is `Some(Err(Undecodable))`.
//!
//! Record and skip, keeping the last token handled so that a restart resumes after it (past a bad event too):
//!
//! ```no_run
//! # use odm::{Collection, Error, Model, watch::Change, bson::oid::ObjectId};
//! # use futures_util::StreamExt;
//! # #[derive(Model, serde::Serialize, serde::Deserialize)]
//! # #[odm(collection = "shop_order")]
//! # struct Order { #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "t")] total: i64 }
//! # fn handle(change: Change<Order>) {}
//! # fn save_token(token: &odm::mongodb::change_stream::event::ResumeToken) {}
//! # async fn demo(orders: Collection<Order>) -> odm::error::Result<()> {
//! let mut changes = orders.watch().full_document().stream().await?;
//! while let Some(item) = changes.next().await {
//!     let token = match item {
//!         Ok(event) => {
//!             if let Change::Update { id, value: Some(Err(bad)), .. } = &event.change {
//!                 eprintln!("order {id} was updated and no longer decodes: {bad}");
//!             }
//!             handle(event.change);
//!             event.token
//!         }
//!         Err(Error::UndecodableChange(bad)) => {
//!             // Record it (the raw document is in `bad.raw`) and go on with the next event.
//!             eprintln!("skipped the {} of order {}: {}", bad.operation, bad.id, bad.error);
//!             bad.token
//!         }
//!         Err(e) => return Err(e),
//!     };
//!     save_token(&token); // after a restart: `orders.watch().resume_after(token)`
//! }
//! # Ok(()) }
//! ```

pub use crate::driver::watch::{Change, ChangeEvent, Undecodable, Watch};
#[doc(no_inline)]
pub use crate::error::UndecodableChange;
