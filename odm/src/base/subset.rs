//! `odm::subset` without a server (users read its documentation on the module, `src/subset.rs`): the subset pattern: an array keeps the latest elements embedded for fast reads, and another model's collection keeps every element, so nothing a push cuts is lost.

pub(crate) mod declared;

pub use declared::Subset;
#[doc(hidden)]
pub use declared::{fault, overflow_fits, owner_indexed};
