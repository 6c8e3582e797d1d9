//! The size vocabulary (`budget`: `Size`, `Budget`, `Reason`, the arithmetic of BSON's encoding) and the text of
//! refusals built in const evaluation (`text`). A struct's budget is walked over its field table in
//! `crate::base::meta::tables`, above the table. Users read the docs at `odm::size` (src/size.rs).

pub(crate) mod budget;
pub(crate) mod text;

pub use budget::{array_bytes, string_bytes, Budget, Reason, Size, Unbounded, DOCUMENT_LIMIT};

#[cfg(test)]
mod tests;
