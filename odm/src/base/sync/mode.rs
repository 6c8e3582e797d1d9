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
    /// Apply the model's validator, level and action in one `collMod`, unless stored documents fail it: a validator
    /// that refuses writes (`validationAction: error`) is first checked against the collection (a count of the
    /// documents it refuses, as the schema check counts them), and when some fail it is not applied: the outcome is
    /// [`Outcome::NotTightened`](super::Outcome::NotTightened) with their count, which is drift.
    Direct,
    /// As [`ValidatorRollout::Direct`], and tighten even over stored documents that fail the new validator (the
    /// operator asked to: `apply --rollout direct --tighten-anyway`). They stay as they are, and the server
    /// refuses every update of one that does not fix it; the outcome
    /// [`Outcome::TightenedOver`](super::Outcome::TightenedOver) says how many.
    DirectAnyway,
}

/// Whether the server is a sharded cluster, which decides whether sync shards collections whose models declare a
/// shard key.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Topology {
    /// Ask the server (`hello`: a `mongos` answers `msg: "isdbgrid"`), once per sync, only when a model declares a
    /// shard key.
    #[default]
    Detect,
    /// Plan as for a sharded cluster, whatever the server is: to export the cluster's plan (its mongosh script holds
    /// the `shardCollection` commands) from a server that is not one.
    Sharded,
    /// Plan as for a server that is not a cluster: declared shard keys are noted, not applied.
    NotSharded,
}
