//! Filters, sorts and projections over typed paths: the `Filter` value and its combinators (`value`), conditions on a
//! path (`conditions`), field-to-field comparisons (`compare`), conditions on one array element (`elements`), `Sort`,
//! `Projection`, and whether two stored paths overlap. Users read the docs at `odm::filter` (src/filter.rs).

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
