//! The compile-time rules (design.md §1–6). One `check_*` function per rule; each reports to the [`Ctxt`] with the
//! span of the exact culprit and never stops the others.

use super::ast::{Container, Data, Derive, Field, Style, Variant};
use super::ctxt::Ctxt;
use super::names;
use super::ty::{self, TyKind};
use std::collections::HashMap;

/// Stored keys longer than this are refused unless the model raises its limit (seed 001 §3(3): short keys).
pub const DEFAULT_MAX_KEY_LEN: usize = 16;

/// The `bsonType` aliases the server accepts (reference/mongodb.md §2.3).
pub const BSON_TYPES: &[&str] = &[
    "double",
    "string",
    "object",
    "array",
    "binData",
    "objectId",
    "bool",
    "date",
    "null",
    "regex",
    "javascript",
    "int",
    "timestamp",
    "long",
    "decimal",
    "minKey",
    "maxKey",
];

/// How the validator learns a field's stored type.
pub enum Source {
    /// From the field type's `BsonSchema` impl.
    Trait,
    /// Fixed by a serde converter (`with`/`serde_as`) or `#[odm(bson_type)]`.
    Fixed(String),
    /// `#[odm(mixed)]`: any type accepted (explicit opt-out of rule 3).
    Mixed,
}

/// Decides a field's [`Source`]; errors for converters are reported by [`check_field_type`].
pub fn source(field: &Field) -> Source {
    if field.attrs.mixed.is_some() {
        return Source::Mixed;
    }
    if let Some(t) = &field.attrs.bson_type {
        return Source::Fixed(t.value.clone());
    }
    match &field.attrs.converter {
        Some(conv) => match converter_type(&conv.value) {
            Ok(t) => Source::Fixed(t.to_owned()),
            Err(_) => Source::Mixed,
        },
        None => Source::Trait,
    }
}

/// What a known serde converter writes.
fn converter_type(path: &str) -> Result<&'static str, &'static str> {
    let p = path.replace(' ', "");
    let has = |s: &str| p.contains(s);
    if has("AsRfc3339String") || has("rfc3339") || has("ts_seconds") || has("ts_milliseconds") {
        Err("it stores the date as a string or number: dates must be BSON dates (seed 001 §3(5)); use \
             `bson::serde_helpers::datetime::FromChrono04DateTime` or `bson::DateTime`")
    } else if has("FromChrono04DateTime")
        || has("FromI64")
        || has("FromJiff02Timestamp")
        || has("FromTime03OffsetDateTime")
    {
        Ok("date")
    } else if has("serde_bytes") || has("uuid_1::AsBinary") || has("AsBinary") {
        Ok("binData")
    } else if has("FromHexString") {
        Ok("objectId")
    } else if has("AsHexString") {
        Ok("string")
    } else if has("AsI32") {
        Ok("int")
    } else if has("AsI64") {
        Ok("long")
    } else if has("AsF64") {
        Ok("double")
    } else {
        Err("odm cannot tell which BSON type it writes; declare it with `#[odm(bson_type = \"...\")]`")
    }
}

pub fn check(cx: &Ctxt, cont: &Container) {
    check_generics(cx, cont);
    names::check_container_names(cx, cont);
    let limit = cont
        .attrs
        .max_key_len
        .as_ref()
        .map_or(DEFAULT_MAX_KEY_LEN, |s| s.value);
    match &cont.data {
        Data::Struct(fields) => {
            check_fields(cx, cont, fields, limit, None);
            check_counters(cx, fields);
            if cont.derive == Derive::Model {
                check_id(cx, fields);
            }
        }
        Data::Newtype(field) => {
            check_field_type(cx, field);
            if let Some(c) = &field.attrs.counter {
                cx.error_spanned_by(c, "a newtype has no sibling field to hold a counter");
            }
        }
        Data::Enum(variants) => check_enum(cx, cont, variants, limit),
    }
    if cont.derive == Derive::Embedded {
        for (attr, name) in [
            (
                cont.attrs.collection.as_ref().map(|s| s.tokens.clone()),
                "collection",
            ),
            (cont.attrs.db.as_ref().map(|s| s.tokens.clone()), "db"),
            (
                cont.attrs.module.as_ref().map(|s| s.tokens.clone()),
                "module",
            ),
            (
                cont.attrs
                    .validation_level
                    .as_ref()
                    .map(|s| s.tokens.clone()),
                "validation_level",
            ),
            (
                cont.attrs
                    .validation_action
                    .as_ref()
                    .map(|s| s.tokens.clone()),
                "validation_action",
            ),
        ] {
            if let Some(tokens) = attr {
                cx.error_spanned_by(
                    tokens,
                    format!("`{name}` belongs on a `#[derive(Model)]` collection model, not on an embedded type"),
                );
            }
        }
    }
    if matches!(cont.data, Data::Enum(_)) && cont.attrs.closed.is_some() && cont.attrs.tag.is_none()
    {
        if let Some(c) = &cont.attrs.closed {
            cx.error_spanned_by(
                c,
                "`closed` applies to documents; a unit-only enum is stored as a string",
            );
        }
    }
}

fn check_generics(cx: &Ctxt, cont: &Container) {
    let g = &cont.original.generics;
    if !g.params.is_empty() {
        cx.error_spanned_by(
            g,
            format!(
                "`#[derive({})]` does not support generic types: the validator is generated for one concrete shape; \
                 use concrete field types",
                cont.derive.name()
            ),
        );
    }
}

/// Rule 1 (keys) and 2 (short keys) for one document level; then rule 3–5 per field.
fn check_fields(
    cx: &Ctxt,
    cont: &Container,
    fields: &[Field],
    limit: usize,
    tag: Option<(&str, &proc_macro2::TokenStream)>,
) {
    let mut seen: HashMap<&str, &proc_macro2::TokenStream> = HashMap::new();
    if let Some((tag, tokens)) = tag {
        seen.insert(tag, tokens);
    }
    for field in fields.iter().filter(|f| f.is_stored()) {
        names::check_key(
            cx,
            &field.key,
            &field.key_tokens,
            limit,
            cont.attrs.max_key_len.is_some(),
        );
        if let Some(first) = seen.get(field.key.as_str()) {
            cx.error_spanned_by(
                &field.key_tokens,
                format!(
                    "duplicate stored key `{}`: two fields would be written under one key; rename one of them",
                    field.key
                ),
            );
            cx.error_spanned_by(*first, format!("first use of key `{}` here", field.key));
        } else {
            seen.insert(&field.key, &field.key_tokens);
        }
        check_field_type(cx, field);
    }
    for field in fields.iter().filter(|f| !f.is_stored()) {
        if let Some(c) = &field.attrs.counter {
            cx.error_spanned_by(
                c,
                "a skipped field is never stored, so it cannot have a counter",
            );
        }
    }
}

/// Rules 3 (one BSON type), 4 (dates are dates) and 5 (bounded arrays) for one field.
fn check_field_type(cx: &Ctxt, field: &Field) {
    let a = &field.attrs;
    let ty = field.ty;
    let name = &field.rust_name;

    if let Some(conv) = &a.converter {
        if a.bson_type.is_none() && a.mixed.is_none() {
            if let Err(why) = converter_type(&conv.value) {
                cx.error_spanned_by(
                    conv,
                    format!("field `{name}`: serde converter `{}`: {why}", conv.value),
                );
            }
        }
    }
    if let Some(t) = &a.bson_type {
        if !BSON_TYPES.contains(&t.value.as_str()) {
            cx.error_spanned_by(
                t,
                format!(
                    "unknown BSON type `{}`: expected one of {}",
                    t.value,
                    BSON_TYPES.join(", ")
                ),
            );
        }
    }
    if let (Some(m), Some(_)) = (&a.mixed, &a.bson_type) {
        cx.error_spanned_by(
            m,
            "`mixed` and `bson_type` contradict each other: a field has one declared type or none",
        );
    }
    let fixed = a.converter.is_some() || a.bson_type.is_some() || a.mixed.is_some();

    // Option: absent, not null (rule 3).
    let (inner, is_option) = match ty::classify(ty) {
        TyKind::Option(inner) => (inner, true),
        _ => (ty, false),
    };
    if is_option {
        if let TyKind::Option(_) = ty::classify(inner) {
            cx.error_spanned_by(
                ty,
                format!("field `{name}`: `Option<Option<T>>` cannot be stored: absent and null would be the same key; \
                         use `Option<T>` with `#[odm(nullable)]`"),
            );
        }
        if field.attrs.skip_serializing_if.is_none() && a.nullable.is_none() && field.is_stored() {
            cx.error_spanned_by(
                ty,
                format!(
                    "field `{name}`: `Option` means the key is absent, but serde writes `None` as `null`; add \
                     `#[serde(skip_serializing_if = \"Option::is_none\")]`, or `#[odm(nullable)]` to store `null` on purpose"
                ),
            );
        }
    } else if let Some(n) = &a.nullable {
        cx.error_spanned_by(
            n,
            format!("field `{name}`: only an `Option` field can be `nullable`"),
        );
    }

    // Unwrap boxes for the shape checks.
    let mut shape = inner;
    while let TyKind::Boxed(b) = ty::classify(shape) {
        shape = b;
    }
    let kind = ty::classify(shape);
    let is_array = matches!(kind, TyKind::Array { .. }) && !fixed;
    match &kind {
        TyKind::Multi { name: tname } if a.mixed.is_none() && !fixed => cx.error_spanned_by(
            shape,
            format!(
                "field `{name}`: `{tname}` can hold any BSON type, but a field stores one type (seed 001 §3(4)); \
                 use a concrete type, or opt out with `#[odm(mixed)]`"
            ),
        ),
        TyKind::Unfaithful { name: tname, why } if !fixed => {
            cx.error_spanned_by(shape, format!("field `{name}`: `{tname}` cannot be stored faithfully: {why}"))
        }
        TyKind::ChronoLike { name: tname } if !fixed => cx.error_spanned_by(
            shape,
            format!(
                "field `{name}`: `{tname}` is written as a string by its own serde impl, but dates must be stored as BSON \
                 dates (seed 001 §3(5)); use `bson::DateTime`, or add \
                 `#[serde(with = \"bson::serde_helpers::datetime::FromChrono04DateTime\")]`"
            ),
        ),
        TyKind::Map { key } => {
            let key_ok = matches!(ty::classify(key), TyKind::Str);
            if !key_ok {
                cx.error_spanned_by(
                    key,
                    format!("field `{name}`: map keys are stored as document keys, so they must be `String`"),
                );
            }
        }
        TyKind::Array { elem, fixed: len } if !fixed => {
            if let TyKind::Multi { .. } | TyKind::ChronoLike { .. } | TyKind::Unfaithful { .. } = ty::classify(elem) {
                cx.error_spanned_by(
                    elem,
                    format!("field `{name}`: array elements follow the same rules as fields: this element type cannot be \
                             stored as one faithful BSON type"),
                );
            }
            let bounded = a.max_items.is_some() || len.is_some();
            match (&a.unbounded, bounded) {
                (None, false) => cx.error_spanned_by(
                    ty,
                    format!(
                        "field `{name}`: arrays must be bounded (seed 002: embedded arrays stay small, about 30 items); \
                         add `#[odm(max_items = N)]`, or `#[odm(unbounded)]` if growth is really unbounded"
                    ),
                ),
                (Some(u), true) => cx.error_spanned_by(
                    u,
                    format!("field `{name}`: `unbounded` contradicts `max_items`; keep one of them"),
                ),
                _ => {}
            }
            if let (Some(min), Some(max)) = (&a.min_items, &a.max_items) {
                if min.value > max.value {
                    cx.error_spanned_by(min, format!("field `{name}`: `min_items` is greater than `max_items`"));
                }
            }
        }
        _ => {}
    }
    if !is_array {
        for (attr, what) in [
            (a.max_items.as_ref().map(|s| s.tokens.clone()), "max_items"),
            (a.min_items.as_ref().map(|s| s.tokens.clone()), "min_items"),
            (a.unbounded.as_ref().map(|s| s.tokens.clone()), "unbounded"),
            (a.counter.as_ref().map(|s| s.tokens.clone()), "counter"),
        ] {
            if let Some(tokens) = attr {
                cx.error_spanned_by(
                    tokens,
                    format!("field `{name}`: `{what}` applies only to array fields"),
                );
            }
        }
    }
    let is_str = matches!(kind, TyKind::Str) && !fixed;
    if !is_str {
        for (attr, what) in [
            (a.max_len.as_ref().map(|s| s.tokens.clone()), "max_len"),
            (a.min_len.as_ref().map(|s| s.tokens.clone()), "min_len"),
        ] {
            if let Some(tokens) = attr {
                cx.error_spanned_by(
                    tokens,
                    format!("field `{name}`: `{what}` applies only to string fields"),
                );
            }
        }
    }
    if is_str && a.not_a_date.is_none() && looks_like_date(&field.rust_name, &field.key) {
        cx.error_spanned_by(
            ty,
            format!(
                "field `{name}` is named like a date but stored as a string; string dates in mixed formats break equality \
                 and range queries (seed 001 §3(5)); use `bson::DateTime`, or add `#[odm(not_a_date)]` if it is not a date"
            ),
        );
    }
}

/// Names that suggest a date or time (snake_case or camelCase).
fn looks_like_date(rust_name: &str, key: &str) -> bool {
    let check = |n: &str| {
        let lower = n.to_ascii_lowercase();
        [
            "date",
            "time",
            "timestamp",
            "datetime",
            "created",
            "updated",
            "deleted",
            "birthday",
            "dob",
            "expires",
        ]
        .contains(&lower.as_str())
            || ["_at", "_date", "_time", "_on", "_ts", "_timestamp"]
                .iter()
                .any(|s| lower.ends_with(s))
            || ["At", "Date", "Time", "On"]
                .iter()
                .any(|s| n.ends_with(s) && n.len() > s.len())
    };
    check(rust_name) || check(key)
}

/// Rule 5 (counters): the counter exists beside the array, is a plain integer, counts one array, and is not `_id`.
fn check_counters(cx: &Ctxt, fields: &[Field]) {
    let mut used: HashMap<String, &Field> = HashMap::new();
    for field in fields {
        let Some(counter) = &field.attrs.counter else {
            continue;
        };
        let Some(target) = fields.iter().find(|f| f.rust_name == counter.value) else {
            let names: Vec<_> = fields
                .iter()
                .filter(|f| !std::ptr::eq(*f, field))
                .map(|f| format!("`{}`", f.rust_name))
                .collect();
            cx.error_spanned_by(
                counter,
                format!(
                    "counter `{}` is not a field of this struct; add an integer field `{}: i32` beside the array \
                     (fields here: {})",
                    counter.value,
                    counter.value,
                    names.join(", ")
                ),
            );
            continue;
        };
        if std::ptr::eq(target, field) {
            cx.error_spanned_by(counter, "an array cannot be its own counter");
            continue;
        }
        // Aliases (`TyKind::Other`) are left to the generated const assertion, which sees the real type.
        if !matches!(ty::classify(target.ty), TyKind::Int | TyKind::Other) {
            cx.error_spanned_by(
                counter,
                format!(
                    "counter `{}` must be an integer field (`i32`, `i64` or `u32`), always present; it is `{}`",
                    counter.value,
                    quote::ToTokens::to_token_stream(target.ty).to_string().replace(' ', "")
                ),
            );
        }
        if !target.is_always_written() {
            cx.error_spanned_by(
                counter,
                format!("counter `{}` is skipped when serializing, so the server could not keep it in step", counter.value),
            );
        }
        if target.key == "_id" {
            cx.error_spanned_by(counter, "`_id` is immutable and cannot count anything");
        }
        if target.attrs.counter.is_some() {
            cx.error_spanned_by(
                counter,
                format!(
                    "counter `{}` is itself an array with a counter",
                    counter.value
                ),
            );
        }
        if let Some(first) = used.get(&counter.value) {
            cx.error_spanned_by(
                counter,
                format!(
                    "counter `{}` already counts `{}`; one integer cannot track the length of two arrays",
                    counter.value, first.rust_name
                ),
            );
        } else {
            used.insert(counter.value.clone(), field);
        }
    }
}

/// Rule 6: `_id` is an ObjectId unless chosen explicitly.
fn check_id(cx: &Ctxt, fields: &[Field]) {
    for field in fields {
        let is_id = field.key == "_id" && field.is_stored();
        match (&field.attrs.custom_id, is_id) {
            (None, true) if !ty::is_object_id(field.ty) && field.attrs.converter.is_none() => cx.error_spanned_by(
                field.ty,
                "`_id` should be the default ObjectId (seed 001 §3(2): custom `_id` values slow inserts); use \
                 `bson::oid::ObjectId`, or add `#[odm(custom_id)]` to choose another type on purpose",
            ),
            (Some(c), false) => {
                cx.error_spanned_by(c, "`custom_id` applies only to the field stored as `_id` (`#[serde(rename = \"_id\")]`)")
            }
            _ => {}
        }
    }
}

fn check_enum(cx: &Ctxt, cont: &Container, variants: &[Variant], limit: usize) {
    let tag = cont.attrs.tag.as_ref();
    let content = cont.attrs.content.as_ref();
    if let (Some(c), None) = (content, tag) {
        cx.error_spanned_by(c, "`content` needs `tag` (adjacent tagging): add `#[serde(tag = \"t\", content = \"c\")]`");
    }
    if let Some(t) = tag {
        names::check_key(
            cx,
            &t.value,
            &t.tokens,
            limit,
            cont.attrs.max_key_len.is_some(),
        );
    }
    if let (Some(t), Some(c)) = (tag, content) {
        names::check_key(
            cx,
            &c.value,
            &c.tokens,
            limit,
            cont.attrs.max_key_len.is_some(),
        );
        if t.value == c.value {
            cx.error_spanned_by(c, "`tag` and `content` must be different keys");
        }
    }
    let mut names_seen: HashMap<&str, &proc_macro2::TokenStream> = HashMap::new();
    let stored: Vec<&Variant> = variants.iter().filter(|v| !v.attrs.skip).collect();
    if stored.is_empty() {
        cx.error_spanned_by(
            cont.ident,
            "an enum with no stored variants has no value to store",
        );
    }
    for v in &stored {
        if let Some(first) = names_seen.get(v.name.as_str()) {
            cx.error_spanned_by(
                &v.name_tokens,
                format!("duplicate variant name `{}` after renaming", v.name),
            );
            cx.error_spanned_by(*first, format!("first use of `{}` here", v.name));
        } else {
            names_seen.insert(&v.name, &v.name_tokens);
        }
        match &v.style {
            Style::Tuple => cx.error_spanned_by(
                &v.original.fields,
                "tuple variants are stored as arrays of mixed types (seed 001 §3(4)); use named fields `{ a: T, b: U }`",
            ),
            Style::Unit => {}
            Style::Newtype(field) => {
                if tag.is_none() {
                    cx.error_spanned_by(
                        v.ident,
                        "an enum with data variants needs a tag so the validator can tell the variants apart; add \
                         `#[serde(tag = \"t\")]` to the enum",
                    );
                }
                check_field_type(cx, field);
            }
            Style::Struct(fields) => {
                if tag.is_none() {
                    cx.error_spanned_by(
                        v.ident,
                        "an enum with data variants needs a tag so the validator can tell the variants apart; add \
                         `#[serde(tag = \"t\")]` to the enum",
                    );
                }
                // Internally tagged: the tag shares the variant's document.
                let tag_here = if content.is_none() { tag.map(|t| (t.value.as_str(), &t.tokens)) } else { None };
                check_fields(cx, cont, fields, limit, tag_here);
                for c in fields.iter().filter_map(|f| f.attrs.counter.as_ref()) {
                    cx.error_spanned_by(
                        c,
                        "counters inside enum variants are not supported: the server-side check covers struct fields;                          move the array and its counter into an `Embedded` struct",
                    );
                }
            }
        }
    }
}
