//! Errors a person can read: server validation failures (code 121) and decode failures are translated from stored
//! keys back to Rust field paths, with the rule and the expected vs actual type; documents over 16 MiB are named as
//! such, whether odm refused them before sending or the server did.

#[cfg(feature = "driver")]
#[cfg_attr(docsrs, doc(cfg(feature = "driver")))]
pub use crate::base::error::UndecodableChange;
pub use crate::base::error::{
    BackupError, BulkError, BulkFailure, Clause, DecodeError, DuplicateInSetError, Error, Feature, FieldFailure,
    Invalid, NamedPath, NotMigratedError, RepairStopped, Result, ScatterGatherError, ValidationError, VersionError,
    Waited, MAX_DOCUMENT_SIZE, MAX_STATEMENT_SIZE,
};
#[doc(no_inline)]
pub use crate::bulk::BulkResult;
