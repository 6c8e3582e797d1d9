//! One index with its languages resolved: the unit the index rules check and the index generator builds from.

use super::field::FieldFacts;
use super::partial::Condition;
use super::weights::Weight;
use super::{keys, partial, weights};
use crate::internals::ast::{Field, Variant};
use crate::internals::attr::index::IndexAttr;
use crate::internals::index_keys::Key;
use crate::internals::lists::PartError;
use std::ops::Deref;

/// One index, its languages resolved.
pub struct Index<'a> {
    /// The options as written (or as built for a query): the literals errors point at.
    pub attr: IndexSource<'a>,
    /// `None` without `keys`; else its keys, or the first error in them.
    pub keys: Option<Result<Vec<Key<'a>>, PartError>>,
    /// `None` without `partial`; else its conditions, or the first error in them.
    pub partial: Option<Result<Vec<Condition<'a>>, PartError>>,
    /// `None` without `weights`; else each entry, or its error.
    pub weights: Option<Vec<Result<Weight<'a>, PartError>>>,
    /// On a polymorphic model, the variant named by `variant = "…"`: its fields are the ones the keys name, and the
    /// index holds its documents only.
    pub variant: Option<&'a Variant<'a>>,
}

/// Where an index comes from: written by the user, or built for a declared query.
pub enum IndexSource<'a> {
    /// `#[odm(index(...))]`.
    Declared(&'a IndexAttr),
    /// The ESR index of a declared query no declared index serves.
    ForQuery(Box<IndexAttr>),
}

impl Deref for IndexSource<'_> {
    type Target = IndexAttr;

    fn deref(&self) -> &IndexAttr {
        match self {
            IndexSource::Declared(attr) => attr,
            IndexSource::ForQuery(attr) => attr,
        }
    }
}

/// Resolves the languages of one index.
pub fn resolve_index<'a>(fields: &'a [Field<'a>], facts: &FieldFacts, attr: IndexSource<'a>) -> Index<'a> {
    let keys = attr.keys.as_ref().map(|k| keys::resolve_keys(fields, facts, &k.value()));
    let partial = attr.partial.as_ref().map(|p| partial::parse_partial(fields, facts, &p.value()));
    let weights = attr.weights.as_ref().map(|w| weights::parse_weights(fields, facts, &w.value()));
    Index { attr, keys, partial, weights, variant: None }
}
