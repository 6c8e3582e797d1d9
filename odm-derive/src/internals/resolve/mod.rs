//! The resolve stage: runs once, after parsing and before the rules. It resolves each field's facts
//! ([`field`]), turns the small languages written inside string attributes (an index's `keys`, `partial` and
//! `weights`, the model's `shard_key`, the declared queries) into a resolved model of fields, paths and kinds, looks
//! up the fields a bucket or a time series names, and picks the model's revision field. The rules report the errors
//! found here and check the rest; the generators read only this model, so no language is parsed twice and every
//! stage sees the same meaning.
//!
//! Nothing here reports to the context: an error is kept, with the part of the literal it is about, for the rule
//! that owns it, which decides whether it is shown (a `partial` error waits until the `keys` resolve, say).

pub mod field;
mod index;
mod keys;
mod partial;
mod path;
mod query;
mod series;
mod shard;
pub mod template;
mod weights;

pub use field::{Facts, FieldFacts};
pub use index::{Index, IndexSource};
pub use partial::PartialValue;
pub use query::{Esr, Query};
pub use series::{Bucket, Timeseries};
pub use shard::{ShardKey, HASHED};
pub use weights::Weight;

use super::ast::{Container, Data, Field, Style, Variant};
use super::attr::index::IndexAttr;
use super::attr::query::QueryAttr;
use super::case::RenameRule;

/// The resolved model of a container: each field's facts, and its string attributes.
pub struct Resolved<'a> {
    /// The facts of every field, read through [`Resolved::facts`].
    pub field_facts: FieldFacts,
    /// The declared indexes, in declaration order (those without `keys` too: the ceiling counts them).
    pub indexes: Vec<Index<'a>>,
    /// The declared queries, in declaration order.
    pub queries: Vec<Query<'a>>,
    /// The ESR indexes the derive builds for the queries no declared index serves.
    pub query_indexes: Vec<QueryIndex<'a>>,
    /// The declared shard key.
    pub shard_key: Option<ShardKey<'a>>,
    /// The field marked `#[odm(revision)]` (the first, when several are: a rule reports the others).
    pub revision: Option<&'a Field<'a>>,
    /// The collection name as a template (`log_app_event_{yyyymm}`), or what is wrong with it; `Ok(None)` for a
    /// plain name (or none).
    pub template: Result<Option<template::Template>, String>,
    /// The fields a struct model's `bucket(…)` names.
    pub bucket: Option<Bucket<'a>>,
    /// The fields a struct model's `timeseries(…)` names.
    pub timeseries: Option<Timeseries<'a>>,
}

/// The ESR index built for a declared query.
pub struct QueryIndex<'a> {
    /// The query it serves, where errors about it point.
    pub query: &'a QueryAttr,
    /// Its `keys`, as the ESR order spells them.
    pub keys: String,
    /// The index, resolved like a declared one.
    pub index: Index<'a>,
}

impl<'a> Resolved<'a> {
    /// Resolves the facts of every field of `cont`, and every string attribute, once. Only structs with named
    /// fields (and a polymorphic model's struct variants) have paths to resolve.
    pub fn new(cont: &'a Container<'a>) -> Self {
        let facts = FieldFacts::new(&cont.data);
        let mut resolved = Self::by_kind(cont, facts);
        resolved.template = cont.attrs.collection.as_ref().map_or(Ok(None), |c| template::resolve(&c.value));
        resolved
    }

    fn by_kind(cont: &'a Container<'a>, facts: FieldFacts) -> Self {
        if let (true, Data::Enum(variants)) = (cont.is_polymorphic(), &cont.data) {
            return Self::polymorphic(cont, variants, facts);
        }
        let Data::Struct(fields) = &cont.data else {
            return Resolved {
                field_facts: facts,
                indexes: Vec::new(),
                queries: Vec::new(),
                query_indexes: Vec::new(),
                shard_key: None,
                revision: None,
                template: Ok(None),
                bucket: None,
                timeseries: None,
            };
        };
        let a = &cont.attrs;
        let indexes: Vec<Index> =
            a.indexes.iter().map(|idx| index::resolve_index(fields, &facts, IndexSource::Declared(idx))).collect();
        let queries: Vec<Query> = a.queries.iter().map(|q| query::resolve_query(fields, &facts, q)).collect();
        let query_indexes = query::unserved(&indexes, &queries)
            .into_iter()
            .map(|(i, keys)| {
                let q = queries[i].attr;
                let attr = IndexSource::ForQuery(Box::new(IndexAttr::for_query(&keys, q.tokens.clone())));
                QueryIndex { query: q, keys, index: index::resolve_index(fields, &facts, attr) }
            })
            .collect();
        let shard_key = a.shard_key.as_ref().map(|sk| shard::resolve_shard_key(fields, &facts, &sk.value));
        let revision = fields.iter().find(|f| f.attrs.revision.is_some());
        let bucket = a.bucket.as_ref().map(|b| series::resolve_bucket(fields, b));
        let timeseries = a.timeseries.as_ref().map(|t| series::resolve_timeseries(fields, t));
        Resolved {
            field_facts: facts,
            indexes,
            queries,
            query_indexes,
            shard_key,
            revision,
            template: Ok(None),
            bucket,
            timeseries,
        }
    }

    /// A polymorphic model: each index resolved against the fields of the variant it names (`variant = "…"`), or,
    /// without one, of the first struct variant that has them (a rule checks that every struct variant does).
    fn polymorphic(cont: &'a Container<'a>, variants: &'a [Variant<'a>], facts: FieldFacts) -> Self {
        let structs: Vec<(&'a Variant<'a>, &'a [Field<'a>])> = variants
            .iter()
            .filter_map(|v| match &v.style {
                Style::Struct(fields) => Some((v, fields.as_slice())),
                _ => None,
            })
            .collect();
        let indexes = cont
            .attrs
            .indexes
            .iter()
            .map(|idx| {
                let scope = match &idx.variant {
                    Some(lit) => structs.iter().find(|(v, _)| variant_name(v) == lit.value()).copied(),
                    // The first struct variant that has the fields (a rule then checks that every one has them).
                    None => structs
                        .iter()
                        .find(|(_, fields)| {
                            matches!(
                                index::resolve_index(fields, &facts, IndexSource::Declared(idx)).keys,
                                Some(Ok(_)) | None
                            )
                        })
                        .or(structs.first())
                        .copied(),
                };
                match scope {
                    Some((v, fields)) => {
                        let mut index = index::resolve_index(fields, &facts, IndexSource::Declared(idx));
                        index.variant = idx.variant.is_some().then_some(v);
                        index
                    }
                    None => Index {
                        attr: IndexSource::Declared(idx),
                        keys: None,
                        partial: None,
                        weights: None,
                        variant: None,
                    },
                }
            })
            .collect();
        Resolved {
            field_facts: facts,
            indexes,
            queries: Vec::new(),
            query_indexes: Vec::new(),
            shard_key: None,
            revision: None,
            template: Ok(None),
            bucket: None,
            timeseries: None,
        }
    }

    /// The resolved facts of `field`, a field of the container.
    pub fn facts(&self, field: &Field) -> &Facts {
        self.field_facts.of(field)
    }

    /// Whether an index over every document (not partial), declared or built for a query, starts with `field`
    /// (top level; ascending, descending or hashed): an equality on its key is then served by an index. The
    /// field's table entry says so (`FieldMeta::leads_index`), which the subset pattern's overflow check reads.
    pub fn leads_index(&self, field: &Field) -> bool {
        use super::index_keys::KeyKind;
        let query_indexes = self.query_indexes.iter().map(|q| &q.index);
        self.indexes.iter().chain(query_indexes).any(|i| {
            i.attr.keys.is_some()
                && i.attr.partial.is_none()
                && matches!(&i.keys, Some(Ok(keys)) if keys.first().is_some_and(|k| {
                    k.nested.is_none()
                        && matches!(k.kind, KeyKind::Asc | KeyKind::Desc | KeyKind::Hashed)
                        && k.field.is_some_and(|f| f.id == field.id)
                }))
        })
    }

    /// The shard key's fields, in order, with `hashed` marks (none without a shard key).
    pub fn shard_fields(&self) -> Vec<(&'a Field<'a>, bool)> {
        self.shard_key.as_ref().map_or_else(Vec::new, ShardKey::fields)
    }
}

/// How `variant = "…"` and typed paths name a variant: its Rust name in snake case (`PurchaseOrder` →
/// `purchase_order`).
pub fn variant_name(v: &Variant) -> String {
    use syn::ext::IdentExt;
    RenameRule::SnakeCase.apply_to_variant(&v.ident.unraw().to_string())
}
