//! The subset pattern as declared: the `Subset` trait the derive implements and the const check of an overflow model
//! against the element (`declared`). The push that keeps what it cuts is `crate::driver::subset`. Users read the docs
//! at `odm::subset` (src/subset.rs).

pub(crate) mod declared;

pub use declared::Subset;
#[doc(hidden)]
pub use declared::{fault, overflow_fits, owner_indexed};
