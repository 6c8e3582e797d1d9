//! `odm::reference` without a server (users read its documentation on the module, `src/reference.rs`): extended references: an embedded struct that holds another model's `_id` and copies some of its fields, so a read needs no second query (an order's `customer: CustomerRef { id, name }`).

pub(crate) mod fit;
pub(crate) mod traits;

#[doc(hidden)]
pub use fit::{copy_fits, id_fits, misfit};
pub use traits::{Copies, HoldsReferences};
