//! Errors a person can read: server validation failures (code 121) and decode failures are translated from stored
//! keys back to Rust field paths, with the rule and the expected vs actual type; documents over 16 MiB are named as
//! such, whether odm refused them before sending or the server did.

mod decode;
mod driver;
mod invalid;
mod payload;
mod validation;
mod validator_reply;
mod variants;
mod waited;

#[cfg(test)]
mod tests;

pub use crate::bulk::BulkResult;
pub use decode::DecodeError;
pub(crate) use driver::{reply_int, write_error};
pub use invalid::{Clause, Invalid, NamedPath};
pub use payload::{NotMigratedError, ScatterGatherError, VersionError};
pub use validation::{FieldFailure, ValidationError};
pub(crate) use variants::{model_name, Shown};
pub use variants::{BulkError, BulkFailure, Error, Result, UndecodableChange, MAX_DOCUMENT_SIZE, MAX_STATEMENT_SIZE};
pub use waited::{Feature, Waited};
