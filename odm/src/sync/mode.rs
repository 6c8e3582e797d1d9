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
