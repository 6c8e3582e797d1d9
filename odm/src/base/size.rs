//! `odm::size` without a server (users read its documentation on the module, `src/size.rs`): the document-size budget: the most bytes a stored document of a model can take, computed at compile time from the bounds its types declare (rule [`model-size`](crate::rules#model-size)).

pub(crate) mod budget;
pub(crate) mod text;

pub use budget::{array_bytes, string_bytes, Budget, Reason, Size, Unbounded, DOCUMENT_LIMIT};

#[cfg(test)]
mod tests;
