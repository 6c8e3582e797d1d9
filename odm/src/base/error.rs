//! odm's error types: `Error` and its variants (`variants`), validation failures named by Rust path (`validation`,
//! `validator_reply`), decode failures, refusals before sending (`invalid`), and the reports some errors carry.
//! Mapping a driver error into them is `crate::driver::error`. Users read the docs at `odm::error` (src/error.rs).

mod backup;
mod bulk_result;
mod decode;
pub(crate) mod filter_error;
mod invalid;
mod payload;
pub(crate) mod repair_report;
// How `Error::Driver` reads.
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
pub use filter_error::FilterNotMigratedError;
pub use invalid::{Clause, Invalid, NamedPath};
pub use payload::{DuplicateInSetError, NotMigratedError, ScatterGatherError, VersionError};
pub use repair_report::{RepairReport, StaleCopy, UnfixableCopy};
pub use validation::{FieldFailure, ValidationError};
#[cfg(feature = "driver")]
pub(crate) use variants::Shown;
#[cfg(feature = "driver")]
pub use variants::UndecodableChange;
pub use variants::{BulkError, BulkFailure, Error, RepairStopped, Result, MAX_DOCUMENT_SIZE, MAX_STATEMENT_SIZE};
pub use waited::{Feature, Waited};
