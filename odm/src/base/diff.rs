//! The recorder a diff walk writes into (`record`: `Diff`, `DiffPath`, `by_value`). It names no stored type, so
//! `BsonSchema::diff` can take it; the walks over stored types need that trait and are `crate::base::schema::diffs`.
//! Users read the docs at `odm::diff` (src/diff.rs).

mod record;

pub use self::record::{by_value, Diff, DiffPath};
pub(crate) use self::record::{Change, DiffOp};
