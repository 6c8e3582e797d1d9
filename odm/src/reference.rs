//! Extended references: an embedded struct that holds another model's `_id` and copies some of its fields, so a
//! read needs no second query (an order's `customer: CustomerRef { id, name }`).
//!
//! The copy is declared on the struct, `#[odm(copies(model = "Customer", by = "id"))]`: `by` holds the source
//! document's `_id`, and every other stored field copies the source's field of the same Rust name. The derive
//! implements [`Copies`] and checks at compile time, from both field tables, that each copy is stored as its
//! source is (same BSON type, element type and converter) and accepts every value the source's validator accepts
//! (bounds at least as wide, absent or `null` where the source may be): rule
//! [`copy-bounds`](crate::rules#copy-bounds); the attribute itself is rule
//! [`copy-source`](crate::rules#copy-source).
//!
//! Copies go stale when the source changes. [`Propagate`] sets every copy of one source when the source is written
//! through odm (in the same transaction, when both collections are bound to its session); [`Repair`] finds copies
//! that went stale anyway (the source written by another program, a propagation left out) and repairs them.

pub use crate::base::error::{RepairReport, StaleCopy, UnfixableCopy};
#[doc(hidden)]
pub use crate::base::reference::{copy_fits, id_fits, misfit};
pub use crate::base::reference::{Copies, HoldsReferences};
#[cfg(feature = "driver")]
#[cfg_attr(docsrs, doc(cfg(feature = "driver")))]
pub use crate::driver::reference::{Propagate, Repair};
