//! `odm::filter` without a server (users read its documentation on the module, `src/filter.rs`): filters, sorts and projections over typed paths.

mod compare;
mod conditions;
mod elements;
mod overlap;
mod projection;
mod sort;
mod value;

pub(crate) use compare::refuse_in_element;
pub use compare::{Comparable, OneValue};
pub(crate) use elements::{element_condition, Element};
pub(crate) use overlap::overlaps;
pub use projection::Projection;
pub use sort::Sort;
pub use value::Filter;
