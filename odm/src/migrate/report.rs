//! What a migration reports: progress after each batch, the documents it left behind and why, and the final tally.

use crate::error::Error;
use crate::progress;
use bson::Bson;
use std::fmt;
use std::time::Duration;

/// How far a migration has come, given to [`Migration::on_progress`](crate::Migration::on_progress) after every batch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MigrationProgress {
    /// Documents dealt with so far: migrated, failed, or found deleted or already current when read again. Never
    /// decreases.
    pub done: u64,
    /// Documents not at the current version when the migration started, or `done` when more were found (older
    /// documents may be written meanwhile).
    pub total: u64,
    /// Documents migrated by this run so far.
    pub migrated: u64,
    /// Documents changed by another writer between read and write so far, read again (see
    /// [`MigrationReport::retried`]).
    pub retried: u64,
    /// Documents left unmigrated so far because they fail (see [`MigrationReport::failed`]).
    pub failed: u64,
    /// Time since the migration started, pauses included.
    pub elapsed: Duration,
}

impl MigrationProgress {
    /// Documents dealt with per second so far.
    pub fn rate(&self) -> f64 {
        progress::rate(self.done, self.elapsed)
    }

    /// The time left at the rate so far (`None` before the rate is known).
    pub fn eta(&self) -> Option<Duration> {
        progress::eta(self.done, self.total, self.elapsed)
    }

    /// The fraction done, from 0 to 1 (1 when there is nothing to do), for a progress bar.
    pub fn fraction(&self) -> f64 {
        progress::fraction(self.done, self.total)
    }
}

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

/// What [`Migration::run`](crate::Migration::run) did.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_knows_its_rate_and_what_is_left() {
        let p = MigrationProgress {
            done: 500,
            total: 2000,
            migrated: 490,
            retried: 3,
            failed: 10,
            elapsed: Duration::from_secs(2),
        };
        assert_eq!(p.rate(), 250.0);
        assert_eq!(p.eta(), Some(Duration::from_secs(6)));
        assert_eq!(p.fraction(), 0.25);
        assert_eq!(MigrationProgress { elapsed: Duration::ZERO, ..p }.eta(), None);
        assert_eq!(MigrationProgress { total: 0, done: 0, ..p }.fraction(), 1.0);
    }
}
