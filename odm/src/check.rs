//! The schema checker: which stored documents the model's current validator would refuse, and why, found by the
//! server without changing anything.
//!
//! Documents written before a validator existed, written around odm with validation bypassed, or kept through a
//! `moderate` rollout may not match the model. [`Collection::check_schema`](crate::Collection::check_schema) finds them
//! with `$nor: [validator]` and explains each one by the part of the validator it breaks: a missing field, a field of
//! the wrong type or out of its bounds, a [`Lowercase`](crate::Lowercase) value with capitals, keys the model does not
//! declare, or a counter out of step with its array — each named by the deepest Rust path that fails
//! (`Order.lines[].quantity`, not `Order.lines`), with the rule that failed, counted, with sample `_id`s. The
//! collection is streamed once, in `_id` order and in batches (never loaded whole), so the time grows linearly with its
//! size; a progress callback sees every batch as soon as it is checked. A model with sets of documents (`unique_items`)
//! adds one query per set, for the element stored twice in two key orders that the validator's `uniqueItems` lets
//! through (rule [`array-unique`](crate::rules#array-unique)).
//!
//! ```no_run
//! # async fn run(orders: odm::Collection<impl odm::Model>) -> odm::error::Result<()> {
//! let report = orders
//!     .check_schema()
//!     .on_progress(|p| eprintln!("{}/{} checked, {} failing, eta {:?}", p.done, p.total, p.failed, p.eta()))
//!     .await?;
//! for finding in &report.findings {
//!     println!("{finding}");
//! }
//! # Ok(())
//! # }
//! ```

pub use crate::driver::check::{Finding, SchemaCheck, SchemaReport};
#[doc(no_inline)]
pub use crate::schema::parts::Check;
