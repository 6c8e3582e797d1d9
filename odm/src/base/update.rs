//! `odm::update` without a server (users read its documentation on the module, `src/update.rs`): targeted updates typed by the field they target, with array counters kept in step in the same update.

mod arrays;
mod build;
// A bucket's upsert keeps its computed fields as a typed push does.
pub(crate) mod computed;
mod diff;
mod fields;
mod markers;
mod modifiers;
pub(crate) mod value;

pub use crate::base::operator::Operator;
pub use markers::{AllowsSlice, DateLike, InsertSettable, NoModifiers, Numeric, Optional, Sliced, Unsliced};
pub use modifiers::Modifiers;
pub use value::{BuiltUpdate, Update};
