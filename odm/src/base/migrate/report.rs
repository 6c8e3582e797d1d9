//! What a migration reports: progress after each batch, the documents it left behind and why, and the final tally.

use crate::base::error::Error;
use bson::Bson;
use std::fmt;
use std::time::Duration;

/// A document a migration left at its older version, and why.
#[derive(Debug)]
pub struct MigrationFailure {
    /// The document's `_id`.
    pub id: Bson,
    /// Why: [`Error::Decode`] (the document does not decode as the version it says), [`Error::Version`] (a version
    /// the model does not read, e.g. written by a newer release), an encoding error (too large, bad key), or the
    /// server's refusal ([`Error::Validation`], [`Error::Write`]).
    pub error: Error,
}

impl fmt::Display for MigrationFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "_id {}: {}", self.id, self.error)
    }
}

/// What a migration did (the result of awaiting a [`Migration`](crate::migrate::Migration)).
#[derive(Debug)]
pub struct MigrationReport {
    /// The model's Rust type name.
    pub model: &'static str,
    /// The version documents were migrated to.
    pub version: u32,
    /// Documents this run wrote at the current version.
    pub migrated: u64,
    /// Documents another writer changed between this run's read and its write: the guarded write left them alone,
    /// and they were read again (then migrated from their new content, or found deleted or already current).
    pub retried: u64,
    /// Documents still changing after every retry round: left at their older version, for the next run.
    pub pending: u64,
    /// Documents left at their older version because they fail to decode, to encode, or the server refused them.
    pub failed: Vec<MigrationFailure>,
    /// Bulk `update` commands sent.
    pub batches: u64,
    /// How long the run took, pauses included.
    pub elapsed: Duration,
}

impl MigrationReport {
    /// True when every document read was migrated: none failed, none left pending.
    pub fn is_complete(&self) -> bool {
        self.failed.is_empty() && self.pending == 0
    }
}

impl fmt::Display for MigrationReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} document(s) migrated to version {} in {:.1?} ({} batch(es))",
            self.model, self.migrated, self.version, self.elapsed, self.batches
        )?;
        if self.retried > 0 {
            write!(f, "; {} changed meanwhile and were read again", self.retried)?;
        }
        if self.pending > 0 {
            write!(f, "; {} kept changing and are left for the next run", self.pending)?;
        }
        if !self.failed.is_empty() {
            write!(f, "; {} failed (left at their older version)", self.failed.len())?;
            for failure in &self.failed {
                write!(f, "\n  {failure}")?;
            }
        }
        Ok(())
    }
}
