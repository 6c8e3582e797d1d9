//! What a sync may change, and how a changed validator reaches existing documents.

/// What a sync may change.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum SyncMode {
    /// Read only: report drift, fail if there is any.
    Verify,
    /// Create missing collections and indexes; report everything else (the safe production default).
    #[default]
    CreateMissing,
    /// Bring everything the models own in line.
    Apply,
}

/// How a changed validator reaches a collection that already holds documents.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum ValidatorRollout {
    /// Apply as `moderate`/`warn`, count the documents that fail the new validator, and switch to the model's
    /// level and action only when none does (otherwise stay at `moderate`/`warn` and report the count).
    #[default]
    Staged,
    /// Apply the model's validator, level and action in one `collMod`.
    Direct,
}
