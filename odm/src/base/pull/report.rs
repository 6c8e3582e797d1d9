//! What a pull gives: a model's source and the rules it opts out of, or why a collection gets no model.

use std::fmt;

/// A model's source, written by a [`ModelWriter`](crate::pull::ModelWriter).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct PulledModel {
    /// The collection it reads.
    pub collection: String,
    /// The module's name, for its file (`theaters` is `theaters.rs`; `UserEvents` is `user_events.rs`).
    pub module: String,
    /// The model's type name (`Theater`).
    pub model: String,
    /// The documents it was written from (every one, or a sample's).
    pub documents: u64,
    /// The embedded types written beside it, in the order they appear.
    pub embedded: Vec<String>,
    /// The Rust source of the module: formatted, ready to be saved as `<module>.rs`.
    pub source: String,
    /// Each rule the data breaks that the model opts out of, as its comments say.
    pub notes: Vec<Note>,
}

/// A rule the data breaks and the model opts out of, with what the data showed.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Note {
    /// The rule's id (see [`odm::rules`](crate::rules)).
    pub rule: &'static str,
    /// The stored path (`location.address.street2`); empty for the collection itself.
    pub path: String,
    /// What the data showed, as the comment in the source says it.
    pub message: String,
}

/// Why a collection gets no model: a key at its top level that no field can be stored under, a time-series
/// collection, or one of odm's own.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Unpullable {
    /// The collection.
    pub collection: String,
    /// What stands in the way, with its rule.
    pub reason: String,
}

impl fmt::Display for Unpullable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "no model for `{}`: {}", self.collection, self.reason)
    }
}

impl std::error::Error for Unpullable {}
