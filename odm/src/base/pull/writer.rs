//! `ModelWriter`: the options of one pull, given to `emit`.

use super::emit;
use super::report::{PulledModel, Unpullable};
use crate::base::introspect::Shape;
use crate::base::model::Capped;
use bson::Document;

/// Writes the Rust source of a model that reads a collection's documents as they are stored, from a
/// [`Shape`](crate::introspect::Shape) (what a survey of them found) and the collection's live validator.
///
/// The model is a `#[derive(Model)]` struct with a `#[derive(Embedded)]` struct per embedded document: fields named
/// in snake_case and renamed to the stored keys, `Option` where a key is absent from some documents
/// (`skip_serializing_if`) or holds `null` (`nullable`), an `IndexMap` (keys kept in their stored order) for an
/// object whose keys are data, `Bson` declared `mixed` where a path holds several types, each array bounded by the
/// validator's `maxItems` or the longest array read, its counter declared where one held its length in every
/// document. Where the data breaks a
/// rule, the code says so: the opt-out the rule allows (`max_key_len`, `custom_id`, `nullable`, `existing_name`, …)
/// and a comment naming the rule and the numbers. The text is formatted as rustfmt formats it.
///
/// ```
/// use odm::introspect::Survey;
/// use odm::pull::ModelWriter;
/// use odm::bson::rawdoc;
///
/// let mut survey = Survey::new();
/// survey.add(&rawdoc! { "_id": 1, "userName": "ann", "tags": ["a", "b"] });
/// survey.add(&rawdoc! { "_id": 2, "userName": "bob", "tags": [] });
/// let pulled = ModelWriter::new("Users", &survey.shape()).write().unwrap();
/// assert_eq!(pulled.model, "User");
/// assert!(pulled.source.contains("#[odm(collection = \"Users\", existing_name)]"));
/// assert!(pulled.source.contains("    #[serde(rename = \"userName\")]\n    pub user_name: String,"));
/// assert!(pulled.source.contains("    #[odm(max_items = 2)]\n    pub tags: Vec<String>,"));
/// assert!(pulled.notes.iter().any(|n| n.rule == "id-objectid"));
/// ```
#[must_use = "a writer does nothing until `write` is called"]
pub struct ModelWriter<'a> {
    collection: &'a str,
    shape: &'a Shape,
    database: Option<&'a str>,
    validator: Option<&'a Document>,
    capped: Option<Capped>,
    sampled: bool,
    versioned: bool,
}

impl<'a> ModelWriter<'a> {
    /// A writer for the collection `collection`, whose documents a survey found to hold `shape`.
    pub fn new(collection: &'a str, shape: &'a Shape) -> Self {
        ModelWriter {
            collection,
            shape,
            database: None,
            validator: None,
            capped: None,
            sampled: false,
            versioned: false,
        }
    }

    /// The database, named in the model's documentation.
    pub fn database(mut self, name: &'a str) -> Self {
        self.database = Some(name);
        self
    }

    /// The collection's live validator (`{ $jsonSchema: … }`): its arrays' `maxItems` bound the model's arrays.
    pub fn validator(mut self, validator: &'a Document) -> Self {
        self.validator = Some(validator);
        self
    }

    /// The collection is capped: the model declares it (`capped(size = …, max = …)`), as a sync compares it.
    pub fn capped(mut self, capped: Capped) -> Self {
        self.capped = Some(capped);
        self
    }

    /// Says the shape is a sample's, not every document's: the comments say "sampled".
    pub fn sampled(mut self, sampled: bool) -> Self {
        self.sampled = sampled;
        self
    }

    /// Writes version 2 beside the shape as found: the model follows the rules where the data allows (keys within
    /// 16 bytes, dates and numbers stored as such where every value read is one as text, `None` left out rather
    /// than `null`, a counter beside each bounded array, computed from it), declared `version = 2` with the shape
    /// as found as its version 1 (`…V1` types, which still read the documents not migrated yet), and the step
    /// between them (`Upgrade`, and `From` for the embedded types). Where a person must decide, the step holds a
    /// `compile_error!` saying what: a path of several types. Then `migrate` moves the documents
    /// ([Versioned models](crate::guide::versioning)).
    pub fn versioned(mut self, versioned: bool) -> Self {
        self.versioned = versioned;
        self
    }

    /// Writes the model's module.
    pub fn write(self) -> Result<PulledModel, Unpullable> {
        emit::module(&emit::Input {
            collection: self.collection,
            shape: self.shape,
            database: self.database,
            validator: self.validator,
            capped: self.capped,
            sampled: self.sampled,
            versioned: self.versioned,
        })
    }
}
