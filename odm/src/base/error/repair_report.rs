//! What a [`Repair`](crate::reference::Repair) found and changed ([`RepairReport`]), kept apart from the job so that the error of a
//! repair that stopped ([`crate::error::RepairStopped`]) can carry it.

use crate::base::error::FieldFailure;
use bson::Bson;
use std::fmt;

/// What a [`Repair`](crate::reference::Repair) found and changed.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct RepairReport {
    /// Holder documents read.
    pub examined: u64,
    /// Copies set to their source's value (one per reference that was stale).
    pub repaired: u64,
    /// References whose source document no longer exists: left as they are.
    pub dangling: Vec<StaleCopy>,
    /// Stale copies the holder's validator refused to take their source's value (a source written around odm with
    /// a value the copy's bounds do not allow): left as they are, each with the validator's reason.
    pub unfixable: Vec<UnfixableCopy>,
    /// The `_id` of the last holder whose references were all handled: [`Repair::after`](crate::reference::Repair::after)
    /// resumes from there. Kept when the repair stops on an error too
    /// ([`RepairStopped::report`](crate::error::RepairStopped::report)).
    pub last: Option<Bson>,
}

/// One reference of a holder document.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct StaleCopy {
    /// The holder document's `_id`.
    pub holder: Bson,
    /// The `_id` of the source document the reference names.
    pub source: Bson,
}

/// A stale copy the holder's validator refused to take its source's value: the source holds a value the copy's
/// declared bounds do not allow (written around odm, validation bypassed or before the source's validator).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct UnfixableCopy {
    /// The holder document's `_id`.
    pub holder: Bson,
    /// The `_id` of the source document the reference names.
    pub source: Bson,
    /// The Rust path of the reference in the holder (`Team.lead`, `Team.members[]`).
    pub path: String,
    /// Why the validator refused the copy's new value, by Rust field (`Team.lead.name`, `maxLength`, …).
    pub failures: Vec<FieldFailure>,
}

impl fmt::Display for UnfixableCopy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` of _id {} copies _id {}, whose value the holder's validator refuses",
            self.path, self.holder, self.source
        )?;
        let why: Vec<String> = self.failures.iter().map(ToString::to_string).collect();
        if !why.is_empty() {
            write!(f, ": {}", why.join("; "))?;
        }
        write!(f, "; fix the source's value, then repair again")
    }
}
