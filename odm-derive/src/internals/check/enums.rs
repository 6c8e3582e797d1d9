//! The rules of enums: plain enums stored as strings or documents, and polymorphic models (`poly-*`) whose
//! documents are the variants, told apart by serde's internal tag.

use super::counters::check_counters;
use super::fields::check_fields;
use super::ids::check_ids;
use super::names;
use super::types::check_field_type;
use crate::internals::ast::{Container, Field, Style, Variant};
use crate::internals::ctxt::Ctxt;
use crate::internals::resolve::FieldFacts;
use crate::internals::rules::{self};
use crate::internals::symbol::CONTENT;
use crate::internals::ty::{self, TyKind};
use std::collections::HashMap;

pub(super) fn check_enum(cx: &Ctxt, cont: &Container, variants: &[Variant], limit: usize, facts: &FieldFacts) {
    let tag = cont.attrs.tag.as_ref();
    let content = cont.attrs.content.as_ref();
    if content.is_some() && tag.is_none() {
        // serde's own derive refuses `content` without `tag`; one error is enough.
        cx.serde_rejects();
    }
    // Already reported (untagged refused, `content` without `tag`): no "needs a tag" on top.
    // On a model, `poly-tagged` says it once for the whole enum.
    let tagging_reported = cont.attrs.untagged || content.is_some() || cont.is_polymorphic();
    let mut untagged_data_reported = false;
    if let (Some(t), Some(c)) = (tag, content) {
        names::check_key(cx, &c.value, &c.tokens, CONTENT, limit, cont.attrs.max_key_len.is_some());
        if t.value == c.value {
            // serde's own derive refuses equal `tag` and `content` keys.
            cx.serde_rejects();
        }
    }
    let mut names_seen: HashMap<&str, &syn::Ident> = HashMap::new();
    let stored: Vec<&Variant> = variants.iter().filter(|v| !v.attrs.skip).collect();
    if stored.is_empty() {
        cx.error_spanned_by(cont.ident, rules::ENUM_VARIANTS, "an enum with no stored variants has no value to store");
    }
    for v in &stored {
        if let Some(first) = names_seen.get(v.name.as_str()) {
            cx.error_spanned_by(
                &v.name_tokens,
                rules::ENUM_VARIANTS,
                format!(
                    "duplicate variant name `{}`: variant `{first}` is already stored as `{}`, so the two could not be \
                     told apart; rename one of them",
                    v.name, v.name
                ),
            );
        } else {
            names_seen.insert(&v.name, v.ident);
        }
        let needs_tag = !matches!(v.style, Style::Unit | Style::Tuple) && tag.is_none();
        if needs_tag && !tagging_reported && !untagged_data_reported {
            untagged_data_reported = true;
            cx.error_spanned_by(
                v.ident, rules::ENUM_TAGGED,
                format!(
                    "variant `{}` carries data, and without a tag serde writes it as `{{ \"{}\": ... }}`: the variant name \
                     becomes a key and unit variants stay strings, so the field has no single shape; \
                     add `#[serde(tag = \"t\")]` to the enum so every variant is a document told apart by its tag",
                    v.ident, v.name
                ),
            );
        }
        match &v.style {
            Style::Tuple if tag.is_some() && content.is_none() => {
                // serde's derive refuses a tuple variant in an internally tagged enum too: its impls will be missing.
                cx.serde_rejects();
                cx.error_spanned_by(
                    &v.original.fields,
                    rules::ENUM_TUPLE_VARIANT,
                    "tuple variants are stored as arrays of mixed types; use named fields `{ a: T, b: U }`",
                )
            }
            Style::Tuple => cx.error_spanned_by(
                &v.original.fields,
                rules::ENUM_TUPLE_VARIANT,
                "tuple variants are stored as arrays of mixed types; use named fields `{ a: T, b: U }`",
            ),
            Style::Unit => {}
            Style::Newtype(field) => {
                if tag.is_some() && content.is_none() {
                    check_internally_tagged_newtype(cx, v, field);
                }
                check_field_type(cx, field, facts);
            }
            Style::Struct(fields) => {
                // Internally tagged: the tag shares the variant's document.
                let tag_here = if content.is_none() { tag.map(|t| (t.value.as_str(), &t.tokens)) } else { None };
                check_fields(cx, cont, fields, limit, tag_here, facts);
                check_ids(cx, cont, fields);
                if cont.is_polymorphic() {
                    // A polymorphic model's counter checks are guarded by the discriminator, variant by variant.
                    check_counters(cx, fields, facts);
                    continue;
                }
                for c in fields.iter().filter_map(|f| f.attrs.counter.as_ref()) {
                    cx.error_spanned_by(
                        c,
                        rules::COUNTER_FIELD,
                        "counters inside enum variants are not supported: the server-side check covers struct fields; \
                         move the array and its counter into an `Embedded` struct",
                    );
                }
            }
        }
    }
}

/// The `poly-*` rules of `#[derive(Model)]` on an enum: one collection whose documents are the variants, told apart
/// by serde's internal tag (the discriminator).
pub(super) fn check_polymorphic(cx: &Ctxt, cont: &Container, variants: &[Variant]) {
    let a = &cont.attrs;
    match (&a.tag, &a.content) {
        // serde refuses these (and `untagged` was refused already): one error is enough.
        _ if a.untagged => {}
        (Some(_), Some(content)) => cx.error_spanned_by(
            &content.tokens,
            rules::POLY_TAGGED,
            format!(
                "a polymorphic model is internally tagged: with `content = \"{}\"` serde nests each variant's fields \
                 in a sub-document, so they are no longer the document's own keys (queries, indexes and the \
                 validator would all see one opaque field); remove `content`",
                content.value
            ),
        ),
        (None, _) => cx.error_spanned_by(
            cont.ident,
            rules::POLY_TAGGED,
            format!(
                "`#[derive(Model)]` on enum `{}` stores every variant in one collection, told apart by a \
                 discriminator key in each document; add `#[serde(tag = \"t\")]` (any short key) so serde writes \
                 the variant's name there, or derive `Embedded` to store the enum inside a model",
                cont.ident
            ),
        ),
        (Some(_), None) => {}
    }
    let stored: Vec<&Variant> = variants.iter().filter(|v| !v.attrs.skip).collect();
    // `_id`: declared by every variant or by none, with one type (a newtype variant's struct decides for itself).
    let ids: Vec<(&Variant, Option<&Field>)> = stored
        .iter()
        .filter(|v| matches!(v.style, Style::Struct(_) | Style::Unit))
        .map(|v| {
            let id = match &v.style {
                Style::Struct(fields) => fields.iter().find(|f| f.key == "_id" && f.is_stored()),
                _ => None,
            };
            (*v, id)
        })
        .collect();
    let declared: Vec<&(&Variant, Option<&Field>)> = ids.iter().filter(|(_, id)| id.is_some()).collect();
    if let Some((first_v, Some(first))) = declared.first() {
        let shown = |f: &Field| quote::ToTokens::to_token_stream(f.ty).to_string().replace(' ', "");
        for (v, id) in &ids {
            match id {
                None => cx.error_spanned_by(
                    v.ident,
                    rules::POLY_ID,
                    format!(
                        "variant `{}` declares no `_id`, but `{}::{}` does: every document of the collection has one \
                         `_id`, so declare it in every variant (`#[serde(rename = \"_id\")] id: {}`) or in none",
                        v.ident,
                        cont.ident,
                        first_v.ident,
                        shown(first)
                    ),
                ),
                Some(id) if shown(id) != shown(first) => cx.error_spanned_by(
                    id.ty,
                    rules::POLY_ID,
                    format!(
                        "`_id` of variant `{}` is `{}`, but `{}::{}` stores it as `{}`: one collection has one `_id` \
                         type; use `{}`",
                        v.ident,
                        shown(id),
                        cont.ident,
                        first_v.ident,
                        shown(first),
                        shown(first)
                    ),
                ),
                Some(_) => {}
            }
        }
    }
    // What a polymorphic model does not support (yet): each names where it is written.
    let unsupported = |tokens: proc_macro2::TokenStream, what: &str, why: &str| {
        cx.error_spanned_by(tokens, rules::POLY_ATTR, format!("{what} is not supported on a polymorphic model: {why}"))
    };
    if let Some(sk) = &a.shard_key {
        unsupported(sk.tokens.clone(), "`shard_key`", "its fields would have to be present in every variant");
    }
    if let Some(v) = &a.version {
        unsupported(v.tokens.clone(), "`version`", "older versions are read per struct; version a struct model");
    }
    for v in &stored {
        let fields: Vec<&Field> = match &v.style {
            Style::Struct(fields) => fields.iter().collect(),
            Style::Newtype(field) => vec![&**field],
            _ => Vec::new(),
        };
        for f in fields {
            if let Some(r) = &f.attrs.revision {
                unsupported(
                    r.tokens.clone(),
                    "`revision`",
                    "a guarded write compares one revision key of every document; keep it in a struct model",
                );
            }
        }
    }
}

/// serde writes an internally tagged newtype variant by adding the tag to the inner value's document, so the inner
/// value must be a document; a scalar or array fails at runtime ("cannot serialize tagged newtype variant").
pub(super) fn check_internally_tagged_newtype(cx: &Ctxt, v: &Variant, field: &Field) {
    let not_a_document = match ty::classify(ty::unwrap_option(field.ty)) {
        TyKind::Int | TyKind::NonInteger | TyKind::Str | TyKind::Array { .. } | TyKind::Tuple => true,
        _ => ty::is_object_id(field.ty),
    };
    if not_a_document && field.attrs.converter.is_none() {
        cx.error_spanned_by(
            field.ty,
            rules::ENUM_TAGGED,
            format!(
                "variant `{}` of an internally tagged enum wraps `{}`, which is not a document, so serde cannot write \
                 the tag into it and fails at runtime; use a struct variant `{} {{ value: {} }}`, or adjacent tagging \
                 (`#[serde(tag = \"t\", content = \"c\")]`)",
                v.ident,
                ty::display(field.ty),
                v.ident,
                ty::display(field.ty)
            ),
        );
    }
}
