//! What a bulk write applied ([`BulkResult`]).

use bson::Bson;

/// What a bulk write applied.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BulkResult {
    /// Documents inserted.
    pub inserted: u64,
    /// Documents matched by updates and replacements.
    pub matched: u64,
    /// Documents changed by updates and replacements.
    pub modified: u64,
    /// Documents deleted.
    pub deleted: u64,
    /// Upserts that inserted: the operation's index and the new `_id`.
    pub upserted: Vec<(usize, Bson)>,
}
