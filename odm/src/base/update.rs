//! The typed `Update` builder: operators on one field (`fields`) and on arrays (`arrays`), `$push` modifiers, the
//! markers of which operators a type allows (`markers`), computed fields kept in step (`computed`), `Update::diff`,
//! and building (`build`). What only writes ask of an update is `crate::driver::update`. Users read the docs at
//! `odm::update` (src/update.rs).

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
