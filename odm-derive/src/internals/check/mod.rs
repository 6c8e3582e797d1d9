//! Every compile-time rule, one module per family: names and keys (`names`, `fields`), types (`types`), counters,
//! computed fields, enums and polymorphic models, ids, indexes, queries, writes, the revision, versions, buckets and
//! time series (`series`), copies and overflow. Each reports to the [`Ctxt`] with the span of the exact culprit and
//! the rule's id, reads the IR and the resolved model, and never stops the others.

mod computed;
mod copies;
pub mod index;
mod overflow;
pub mod query;
pub mod revision;
pub mod version;
pub mod writes;

mod counters;
mod enums;
mod fields;
mod ids;
mod names;
mod series;
mod types;

use counters::check_counters;
use enums::{check_enum, check_polymorphic};
use fields::check_fields;
use ids::check_ids;
use types::check_field_type;

use crate::internals::ast::{Container, Data, Derive};
use crate::internals::ctxt::Ctxt;

use crate::internals::resolve::Resolved;
use crate::internals::rules::{self};
use crate::internals::symbol::{
    CLOSED, COLLECTION, DB, EXISTING_NAME, MODULE, OLDER, OPEN, READ_CONCERN, READ_PREFERENCE, SIZE_BUDGET, TAG,
    VALIDATION_ACTION, VALIDATION_LEVEL, VERSION, WRITE_CONCERN,
};

/// Stored keys longer than this are refused unless the model raises its limit: every document stores its keys.
pub const DEFAULT_MAX_KEY_LEN: usize = 16;

pub fn check(cx: &Ctxt, cont: &Container, resolved: &Resolved) {
    index::check(cx, cont, resolved);
    query::check(cx, cont, resolved);
    writes::check(cx, cont, resolved);
    revision::check(cx, cont, resolved);
    version::check(cx, cont);
    check_generics(cx, cont);
    names::check_container_names(cx, cont, resolved);
    copies::check(cx, cont);
    overflow::check(cx, cont);
    series::check(cx, cont, resolved);
    let limit = cont.attrs.max_key_len.as_ref().map_or(DEFAULT_MAX_KEY_LEN, |s| s.value);
    // serde writes `tag` into a struct's document (holding its name) or each variant's: a stored key like any other.
    if let (Some(t), false) = (&cont.attrs.tag, matches!(cont.data, Data::Newtype(_))) {
        names::check_key(cx, &t.value, &t.tokens, TAG, limit, cont.attrs.max_key_len.is_some());
    }
    match &cont.data {
        Data::Struct(fields) => {
            let tag = cont.attrs.tag.as_ref();
            if cont.attrs.content.is_some() {
                // serde's own derive refuses `content` on a struct; one error is enough.
                cx.serde_rejects();
            }
            check_fields(cx, cont, fields, limit, tag.map(|t| (t.value.as_str(), &t.tokens)), &resolved.field_facts);
            check_counters(cx, fields, &resolved.field_facts);
            computed::check(cx, fields, &resolved.field_facts);
            check_ids(cx, cont, fields);
        }
        Data::Newtype(field) => {
            if cont.attrs.tag.is_some() || cont.attrs.content.is_some() {
                // serde's own derive refuses a tag on a newtype or transparent struct.
                cx.serde_rejects();
            }
            check_field_type(cx, field, &resolved.field_facts);
            if let Some(c) = &field.attrs.counter {
                cx.error_spanned_by(c, rules::COUNTER_FIELD, "a newtype has no sibling field to hold a counter");
            }
            if let Some((_, path)) = field.attrs.computed.first() {
                cx.error_spanned_by(
                    path,
                    rules::COMPUTED_SOURCE,
                    "a newtype has no sibling array to compute a value from; declare the computed field beside the \
                     array, in the struct that holds both",
                );
            }
        }
        Data::Enum(variants) => {
            check_enum(cx, cont, variants, limit, &resolved.field_facts);
            if cont.derive == Derive::Model {
                check_polymorphic(cx, cont, variants);
            }
        }
    }
    if cont.derive == Derive::Embedded {
        for (attr, name) in [
            (cont.attrs.collection.as_ref().map(|s| s.tokens.clone()), COLLECTION),
            (cont.attrs.db.as_ref().map(|s| s.tokens.clone()), DB),
            (cont.attrs.module.as_ref().map(|s| s.tokens.clone()), MODULE),
            (cont.attrs.existing_name.as_ref().map(|s| s.tokens.clone()), EXISTING_NAME),
            (cont.attrs.validation_level.as_ref().map(|s| s.tokens.clone()), VALIDATION_LEVEL),
            (cont.attrs.validation_action.as_ref().map(|s| s.tokens.clone()), VALIDATION_ACTION),
            (cont.attrs.read_concern.as_ref().map(|s| s.tokens.clone()), READ_CONCERN),
            (cont.attrs.read_preference.as_ref().map(|s| s.tokens.clone()), READ_PREFERENCE),
            (cont.attrs.write_concern.as_ref().map(|s| s.tokens.clone()), WRITE_CONCERN),
            (cont.attrs.version.as_ref().map(|s| s.tokens.clone()), VERSION),
            (cont.attrs.older.as_ref().map(|s| s.tokens.clone()), OLDER),
            (cont.attrs.size_budget.as_ref().map(|s| s.tokens.clone()), SIZE_BUDGET),
        ] {
            if let Some(tokens) = attr {
                cx.error_spanned_by(
                    tokens,
                    rules::MODEL_ONLY,
                    format!(
                        "`{name}` belongs on a `#[derive(Model)]` collection model, not on an embedded type; remove \
                         it, or derive `Model` if this type is a collection's document"
                    ),
                );
            }
        }
    }
    for (name, attr) in [(CLOSED, &cont.attrs.closed), (OPEN, &cont.attrs.open)] {
        if let (Data::Enum(_), Some(c), None) = (&cont.data, attr, &cont.attrs.tag) {
            cx.error_spanned_by(
                c,
                rules::CLOSED_OPEN,
                format!(
                    "`{name}` applies to documents, but an enum without `#[serde(tag = \"...\")]` is stored as a \
                     string; remove `{name}`"
                ),
            );
        }
    }
    if let (Some(_), Some(open)) = (&cont.attrs.closed, &cont.attrs.open) {
        cx.error_spanned_by(
            open,
            rules::CLOSED_OPEN,
            "`open` and `closed` contradict each other: keep `closed` to refuse unknown keys at every level this type \
             owns, or `open` to accept them here even inside a closed document",
        );
    }
}

fn check_generics(cx: &Ctxt, cont: &Container) {
    let g = &cont.original.generics;
    if !g.params.is_empty() {
        cx.error_spanned_by(
            g,
            rules::MODEL_SHAPE,
            format!(
                "`#[derive({})]` does not support generic types: the validator is generated for one concrete shape; \
                 use concrete field types",
                cont.derive.name()
            ),
        );
    }
}
