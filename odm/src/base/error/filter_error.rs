//! The error of a typed filter refused while documents of older versions remain (see [`super::filters`]); apart
//! from the check, so that the crate's error type can hold it without depending on collections.

use bson::Bson;
use std::fmt;

/// A typed filter naming a field that older versions lack or store differently, refused while documents of those
/// versions may remain ([`Error::FilterNotMigrated`](crate::Error::FilterNotMigrated), see [`crate::version`]).
#[derive(Debug, Clone, PartialEq)]
pub struct FilterNotMigratedError {
    /// The model's Rust type name.
    pub model: &'static str,
    /// The fields the filter names that older versions lack or store differently: the Rust path, the stored key, and
    /// those versions.
    pub fields: Vec<(String, String, Vec<u32>)>,
    /// The `_id` of one document of another version found in the collection.
    pub id: Option<Bson>,
    /// Its version (`None`: no version key, read as the oldest).
    pub version: Option<i64>,
    /// The version this release writes.
    pub current: u32,
    /// The stored key of the version.
    pub key: &'static str,
}

impl fmt::Display for FilterNotMigratedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let FilterNotMigratedError { model, fields, id, version, current, key } = self;
        let fields: Vec<String> = fields
            .iter()
            .map(|(path, stored, versions)| {
                let versions: Vec<String> = versions.iter().map(u32::to_string).collect();
                format!(
                    "`{path}` (stored `{stored}`; version(s) {} store it otherwise or not at all)",
                    versions.join(", ")
                )
            })
            .collect();
        let id = id.as_ref().map_or_else(String::new, |id| format!(" _id {id}"));
        let version = version.map_or_else(|| "without a version key".to_owned(), |v| format!("at version {v}"));
        write!(
            f,
            "{model}: the filter names {}, and documents of older versions remain (e.g.{id}, {version}); the server \
             would match only version {current}'s documents and silently miss the older ones, which reads return as \
             version {current}: nothing was sent. Migrate them first (`migrate()`, then sync tightens the validator), \
             or, to match version {current}'s documents only, pin the version in the filter (the version field `.eq`, \
             stored `{key}`)",
            fields.join(", ")
        )
    }
}
