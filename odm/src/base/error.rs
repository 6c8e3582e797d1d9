//! `odm::error` without a server (users read its documentation on the module, `src/error.rs`): errors a person can read: server validation failures (code 121) and decode failures are translated from stored keys back to Rust field paths, with the rule and the expected vs actual type; documents over 16 MiB are named as such, whether odm refused them before sending or the server did.

mod backup;
mod bulk_result;
mod decode;
pub(crate) mod filter_error;
mod invalid;
mod payload;
pub(crate) mod repair_report;
// The driver's types in errors: the one file of this layer that names them.
#[cfg(feature = "driver")]
pub(crate) mod driver;
pub(crate) mod validation;
mod validator_reply;
pub(crate) mod variants;
mod waited;

#[cfg(test)]
mod tests;

pub use backup::BackupError;
pub use bulk_result::BulkResult;
pub use decode::DecodeError;
#[cfg(feature = "driver")]
pub(crate) use driver::Shown;
#[cfg(feature = "driver")]
pub use driver::UndecodableChange;
pub use filter_error::FilterNotMigratedError;
pub use invalid::{Clause, Invalid, NamedPath};
pub use payload::{DuplicateInSetError, NotMigratedError, ScatterGatherError, VersionError};
pub use repair_report::{RepairReport, StaleCopy, UnfixableCopy};
pub use validation::{FieldFailure, ValidationError};
pub use variants::{BulkError, BulkFailure, Error, RepairStopped, Result, MAX_DOCUMENT_SIZE, MAX_STATEMENT_SIZE};
pub use waited::{Feature, Waited};
