//! `odm::diff` without a server (users read its documentation on the module, `src/diff.rs`): diff updates: from an old and a new value, the minimal targeted update.

mod record;

pub use self::record::{by_value, Diff, DiffPath};
pub(crate) use self::record::{Change, DiffOp};
