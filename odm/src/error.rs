//! Errors a person can read: server validation failures (code 121) and decode failures are translated from stored
//! keys back to Rust field paths, with the rule and the expected vs actual type; documents over 16 MiB are named as
//! such, whether odm refused them before sending or the server did.

mod backup;
mod decode;
// Reading driver errors: the rest of this module is driver-free.
#[cfg(feature = "driver")]
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
pub use backup::BackupError;
pub use decode::DecodeError;
#[cfg(feature = "driver")]
pub(crate) use driver::{reply_int, write_error};
pub use invalid::{Clause, Invalid, NamedPath};
pub use payload::{DuplicateInSetError, NotMigratedError, ScatterGatherError, VersionError};
pub use validation::{FieldFailure, ValidationError};
pub(crate) use variants::model_name;
#[cfg(feature = "driver")]
#[cfg_attr(docsrs, doc(cfg(feature = "driver")))]
pub use variants::RepairStopped;
#[cfg(feature = "driver")]
pub(crate) use variants::Shown;
#[cfg(feature = "driver")]
#[cfg_attr(docsrs, doc(cfg(feature = "driver")))]
pub use variants::UndecodableChange;
pub use variants::{BulkError, BulkFailure, Error, Result, MAX_DOCUMENT_SIZE, MAX_STATEMENT_SIZE};
pub use waited::{Feature, Waited};
