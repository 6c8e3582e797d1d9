//! Index specifications: what a model declares, what the server lists, and when two are the same index.
//!
//! Identity follows the server: two indexes are the same when their key pattern
//! (ordered, numbers compared numerically), `unique`, `sparse`, partial filter, collation and wildcard
//! projection match. `expireAfterSeconds` and `hidden` are options of an existing index, changed with `collMod`
//! without a rebuild. A name does not decide ownership: odm owns the indexes it recorded creating
//! ([`crate::sync::plan::ownership`]), whatever their names.

pub use crate::base::index::{InPlaceChange, IndexSpec, OWNED_PREFIX};
