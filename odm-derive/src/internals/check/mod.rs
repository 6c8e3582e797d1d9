//! The compile-time rules of a type's keys, fields, counters, enums and `_id`. One `check_*` function per rule
//! family; each reports to the [`Ctxt`] with the span of the exact culprit and the rule's id, and never stops the
//! others.

pub mod index;
pub mod query;
pub mod revision;
pub mod version;
pub mod writes;

use crate::internals::ast::{counter_target, Container, Data, Derive, Field, Style, Variant};
use crate::internals::ctxt::Ctxt;
use crate::internals::names;
use crate::internals::resolve::Resolved;
use crate::internals::rules::{self, Rule};
use crate::internals::source::{Source, BSON_TYPES};
use crate::internals::symbol::{
    BSON_TYPE, CLOSED, COLLECTION, CONTENT, COUNTER, DB, MAX_ITEMS, MAX_LEN, MIN_ITEMS, MIN_LEN, MODULE, OLDER, OPEN,
    READ_CONCERN, READ_PREFERENCE, RENAME, TAG, UNBOUNDED, VALIDATION_ACTION, VALIDATION_LEVEL, VERSION, WRITE_CONCERN,
};
use crate::internals::ty::{self, TyKind};
use std::collections::HashMap;

/// Stored keys longer than this are refused unless the model raises its limit: every document stores its keys.
pub const DEFAULT_MAX_KEY_LEN: usize = 16;

pub fn check(cx: &Ctxt, cont: &Container, resolved: &Resolved) {
    index::check(cx, cont, resolved);
    query::check(cx, cont, resolved);
    writes::check(cx, cont, resolved);
    revision::check(cx, cont, resolved);
    version::check(cx, cont);
    check_generics(cx, cont);
    names::check_container_names(cx, cont);
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
            check_fields(cx, cont, fields, limit, tag.map(|t| (t.value.as_str(), &t.tokens)));
            check_counters(cx, fields);
            if cont.derive == Derive::Model {
                check_id(cx, fields);
            }
        }
        Data::Newtype(field) => {
            if cont.attrs.tag.is_some() || cont.attrs.content.is_some() {
                // serde's own derive refuses a tag on a newtype or transparent struct.
                cx.serde_rejects();
            }
            check_field_type(cx, field);
            if let Some(c) = &field.attrs.counter {
                cx.error_spanned_by(c, rules::COUNTER_FIELD, "a newtype has no sibling field to hold a counter");
            }
        }
        Data::Enum(variants) => {
            check_enum(cx, cont, variants, limit);
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
            (cont.attrs.validation_level.as_ref().map(|s| s.tokens.clone()), VALIDATION_LEVEL),
            (cont.attrs.validation_action.as_ref().map(|s| s.tokens.clone()), VALIDATION_ACTION),
            (cont.attrs.read_concern.as_ref().map(|s| s.tokens.clone()), READ_CONCERN),
            (cont.attrs.read_preference.as_ref().map(|s| s.tokens.clone()), READ_PREFERENCE),
            (cont.attrs.write_concern.as_ref().map(|s| s.tokens.clone()), WRITE_CONCERN),
            (cont.attrs.version.as_ref().map(|s| s.tokens.clone()), VERSION),
            (cont.attrs.older.as_ref().map(|s| s.tokens.clone()), OLDER),
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

/// The key rules (`key-*`) for one document level; then the type, date and array rules per field.
fn check_fields(
    cx: &Ctxt,
    cont: &Container,
    fields: &[Field],
    limit: usize,
    tag: Option<(&str, &proc_macro2::TokenStream)>,
) {
    // Key → the Rust field first stored under it (`None`: the internal tag).
    let mut seen: HashMap<&str, Option<&str>> = HashMap::new();
    let (owner, doc) = match cont.data {
        Data::Enum(_) => ("enum's", "this variant's document"),
        _ => ("struct's", "the document"),
    };
    if let Some((tag, _)) = tag {
        seen.insert(tag, None);
    }
    for field in fields.iter().filter(|f| f.is_stored()) {
        names::check_key(cx, &field.key, &field.key_tokens, RENAME, limit, cont.attrs.max_key_len.is_some());
        let key = &field.key;
        match seen.get(key.as_str()) {
            Some(Some(first)) => cx.error_spanned_by(
                &field.key_tokens,
                rules::KEY_UNIQUE,
                format!(
                    "duplicate stored key `{key}`: field `{first}` is already stored under `{key}`, and one document \
                     cannot hold a key twice; give one of them another `#[serde(rename = \"...\")]`"
                ),
            ),
            Some(None) => {
                if matches!(cont.data, Data::Enum(_)) {
                    // serde's derive refuses the clash in an enum too: its impls will be missing.
                    cx.serde_rejects();
                }
                cx.error_spanned_by(
                    &field.key_tokens,
                    rules::KEY_UNIQUE,
                    format!(
                        "stored key `{key}` is the {owner} tag (`#[serde(tag = \"{key}\")]`), which serde writes \
                         into {doc} too; rename the field or choose another tag"
                    ),
                )
            }
            None => {
                seen.insert(key, Some(&field.rust_name));
            }
        }
        check_field_type(cx, field);
    }
    for field in fields.iter().filter(|f| !f.is_stored()) {
        if let Some(c) = &field.attrs.counter {
            cx.error_spanned_by(
                c,
                rules::COUNTER_FIELD,
                "a skipped field is never stored, so it has no size to count; remove `counter`",
            );
        }
    }
}

/// The type (`type-*`), date (`date-*`) and array (`array-*`) rules for one field.
fn check_field_type(cx: &Ctxt, field: &Field) {
    let a = &field.attrs;
    let ty = field.ty;
    let name = &field.rust_name;

    if let (Some(conv), Some((rule, why))) = (&a.converter, field.facts.converter_error) {
        // An unknown converter is satisfied by `bson_type`, perhaps misspelt among the unknown odm keys.
        if !(field.attrs.unknown_odm && why.contains(BSON_TYPE.as_str())) {
            cx.error_spanned_by(
                conv,
                rule,
                format!("field `{name}`: serde converter `{}`: {why}", conv.value.replace(' ', "")),
            );
        }
    }
    if let Some(t) = &a.bson_type {
        if !BSON_TYPES.contains(&t.value.as_str()) {
            cx.error_spanned_by(
                t,
                rules::TYPE_DECLARED,
                format!("unknown BSON type `{}`: expected one of {}", t.value, BSON_TYPES.join(", ")),
            );
        }
    }
    if let (Some(m), Some(_)) = (&a.mixed, &a.bson_type) {
        cx.error_spanned_by(
            m,
            rules::TYPE_DECLARED,
            "`mixed` and `bson_type` contradict each other: a field has one declared type or none; keep one of them",
        );
    }
    let fixed = a.converter.is_some() || a.bson_type.is_some() || a.mixed.is_some();
    // After an unknown `#[odm(...)]` key (reported already), rules that a missing opt-in attribute would satisfy
    // stay quiet: the unknown key is most likely that attribute, misspelt.
    let lenient = a.unknown_odm;

    // Option: absent, not null (`type-option-absent`).
    let (inner, is_option) = match ty::classify(ty) {
        TyKind::Option(inner) => (inner, true),
        _ => (ty, false),
    };
    if is_option {
        if let TyKind::Option(_) = ty::classify(inner) {
            cx.error_spanned_by(
                ty,
                rules::TYPE_OPTION_ABSENT,
                format!(
                    "field `{name}`: `Option<Option<T>>` cannot be stored: absent and null would be the same key; \
                         use `Option<T>` with `#[odm(nullable)]`"
                ),
            );
        }
        if field.attrs.skip_serializing_if.is_none() && a.nullable.is_none() && field.is_stored() && !lenient {
            cx.error_spanned_by(
                ty, rules::TYPE_OPTION_ABSENT,
                format!(
                    "field `{name}`: `Option` means the key is absent, but serde writes `None` as `null`; add \
                     `#[serde(skip_serializing_if = \"Option::is_none\")]`, or `#[odm(nullable)]` to store `null` on purpose"
                ),
            );
        }
    } else if let Some(n) = &a.nullable {
        cx.error_spanned_by(
            n,
            rules::TYPE_OPTION_ABSENT,
            format!(
                "field `{name}`: only an `Option` field can be `nullable` (store `null` for `None`); make the field \
                 `Option<{}>`, or remove `nullable`",
                ty::display(ty)
            ),
        );
    }

    // Unwrap boxes for the shape checks.
    let mut shape = inner;
    while let TyKind::Boxed(b) = ty::classify(shape) {
        shape = b;
    }
    let kind = ty::classify(shape);
    let is_array = matches!(kind, TyKind::Array { .. });
    match &kind {
        _ if fixed => {}
        TyKind::Multi { .. } | TyKind::Tuple if lenient => {}
        TyKind::Map { key, value } => {
            if !matches!(ty::classify(key), TyKind::Str) {
                cx.error_spanned_by(
                    key,
                    rules::KEY_MAP,
                    format!(
                        "field `{name}`: map keys are stored as document keys, so they must be `String`; it is `{}`",
                        ty::display(key)
                    ),
                );
            }
            if let Some((rule, problem)) = element_problem(value) {
                cx.error_spanned_by(value, rule, format!("field `{name}` (map value): {problem}"));
            }
        }
        TyKind::Array { elem, fixed: len } => {
            if let Some((rule, problem)) = element_problem(elem) {
                cx.error_spanned_by(elem, rule, format!("field `{name}` (array element): {problem}"));
            }
            let bounded = a.max_items.is_some() || len.is_some();
            match (&a.unbounded, bounded) {
                (None, false) if !lenient => cx.error_spanned_by(
                    ty,
                    rules::ARRAY_BOUND,
                    format!(
                        "field `{name}`: arrays must be bounded (an embedded array should stay small, tens of items); \
                         add `#[odm(max_items = N)]`, or `#[odm(unbounded)]` if growth is really unbounded"
                    ),
                ),
                (Some(u), true) => cx.error_spanned_by(
                    u,
                    rules::ARRAY_BOUND,
                    format!("field `{name}`: `unbounded` contradicts `max_items`; keep one of them"),
                ),
                _ => {}
            }
            if let (Some(min), Some(max)) = (&a.min_items, &a.max_items) {
                if min.value > max.value {
                    cx.error_spanned_by(
                        min,
                        rules::ARRAY_BOUND,
                        format!(
                            "field `{name}`: `min_items = {}` is greater than `max_items = {}`, so no array could be \
                             stored; lower `min_items` or raise `max_items`",
                            min.value, max.value
                        ),
                    );
                }
            }
        }
        _ => {
            if let Some((rule, problem)) = type_problem(&kind, shape) {
                cx.error_spanned_by(shape, rule, format!("field `{name}`: {problem}"));
            }
        }
    }
    // Array and string keywords need a stored array or string. The stored type is the converter's (`bson_type`)
    // when there is one; an unknown path (`TyKind::Other`, maybe an alias) is left to a generated const assertion;
    // a refused converter or `mixed` was reported or opted out already.
    let (array_ok, string_ok) = match &field.facts.source {
        Source::Fixed(alias) => (Some(alias == "array"), Some(alias == "string")),
        Source::Mixed => (None, None),
        Source::Trait => match kind {
            TyKind::Other => (None, None),
            _ => (Some(is_array), Some(matches!(kind, TyKind::Str))),
        },
    };
    // Rendered only for a message: showing a type costs a round trip to the compiler.
    let what_it_is = || match &field.facts.source {
        Source::Fixed(alias) => format!("is stored as `{alias}`"),
        _ => format!("is `{}`", ty::display(shape)),
    };
    let keywords = [
        (array_ok, "array", a.max_items.as_ref().map(|s| s.tokens.clone()), MAX_ITEMS, rules::ARRAY_KEYWORD),
        (array_ok, "array", a.min_items.as_ref().map(|s| s.tokens.clone()), MIN_ITEMS, rules::ARRAY_KEYWORD),
        (array_ok, "array", a.unbounded.as_ref().map(|s| s.tokens.clone()), UNBOUNDED, rules::ARRAY_KEYWORD),
        (array_ok, "array", a.counter.as_ref().map(|s| s.tokens.clone()), COUNTER, rules::ARRAY_KEYWORD),
        (string_ok, "string", a.max_len.as_ref().map(|s| s.tokens.clone()), MAX_LEN, rules::STRING_LENGTH),
        (string_ok, "string", a.min_len.as_ref().map(|s| s.tokens.clone()), MIN_LEN, rules::STRING_LENGTH),
    ];
    for (ok, kind_name, tokens, keyword, rule) in keywords {
        if let (Some(false), Some(tokens)) = (ok, tokens) {
            cx.error_spanned_by(
                tokens,
                rule,
                format!(
                    "field `{name}`: `{keyword}` applies only to {kind_name} fields, and this field {}; remove it",
                    what_it_is()
                ),
            );
        }
    }
    let is_str = matches!(kind, TyKind::Str) && !fixed;
    if is_str && a.not_a_date.is_none() && !lenient && looks_like_date(&field.rust_name, &field.key) {
        cx.error_spanned_by(
            ty, rules::DATE_STRING,
            format!(
                "field `{name}` is named like a date but stored as a string; string dates in mixed formats break equality \
                 and range queries; use `odm::bson::DateTime`, or add `#[odm(not_a_date)]` if it is not a date"
            ),
        );
    }
}

/// Why a value of this kind cannot be stored as one faithful BSON type, and the rule that says so, if it cannot.
fn type_problem(kind: &TyKind, ty: &syn::Type) -> Option<(Rule, String)> {
    Some(match kind {
        TyKind::Multi { name } => (
            rules::TYPE_ONE_BSON_TYPE,
            format!(
                "`{name}` can hold any BSON type, but a field stores one type; use a concrete type, or opt out with \
                 `#[odm(mixed)]`"
            ),
        ),
        TyKind::Tuple => (
            rules::TYPE_ONE_BSON_TYPE,
            "a tuple is stored as an array of unnamed positions that may differ in type; use an `Embedded` struct \
             with named fields, or `[T; N]` if every element has one type"
                .to_owned(),
        ),
        TyKind::Unfaithful { name, why } => {
            (rules::TYPE_FAITHFUL, format!("`{name}` cannot be stored faithfully: {why}"))
        }
        TyKind::ChronoLike => (
            rules::DATE_CHRONO,
            format!(
                "`{}` is not written as a BSON date by its own serde impl (chrono writes a string), but dates \
                 must be stored as BSON dates; use `odm::bson::DateTime`, or add \
                 `#[serde(with = \"odm::bson::serde_helpers::datetime::FromChrono04DateTime\")]`",
                ty::display(ty)
            ),
        ),
        _ => return None,
    })
}

/// [`type_problem`] for array elements and map values, which also must not be `Option` (serde writes `null`).
fn element_problem(ty: &syn::Type) -> Option<(Rule, String)> {
    match ty::classify(ty) {
        TyKind::Option(inner) => Some((
            rules::TYPE_ONE_BSON_TYPE,
            format!(
                "`{}` writes `null` for `None`, so the array or map would mix `null` with `{}`; store `{}` and leave \
                 missing values out",
                ty::display(ty),
                ty::display(inner),
                ty::display(inner)
            ),
        )),
        // A field-level converter cannot reach the elements: only the element type can change.
        TyKind::ChronoLike => Some((
            rules::DATE_CHRONO,
            format!(
                "`{}` is not written as a BSON date by its own serde impl (chrono writes a string), but dates must \
                 be stored as BSON dates; use `odm::bson::DateTime` elements",
                ty::display(ty)
            ),
        )),
        kind => type_problem(&kind, ty),
    }
}

/// Names that suggest a date or time (snake_case or camelCase).
fn looks_like_date(rust_name: &str, key: &str) -> bool {
    let check = |n: &str| {
        let lower = n.to_ascii_lowercase();
        ["date", "time", "timestamp", "datetime", "created", "updated", "deleted", "birthday", "dob", "expires"]
            .contains(&lower.as_str())
            || ["_at", "_date", "_time", "_on", "_ts", "_timestamp"].iter().any(|s| lower.ends_with(s))
            || ["At", "Date", "Time", "On"].iter().any(|s| n.ends_with(s) && n.len() > s.len())
    };
    check(rust_name) || check(key)
}

/// `counter-field` and `counter-integer`: the counter exists beside the array, is a plain integer, counts one array, and is not `_id`.
fn check_counters(cx: &Ctxt, fields: &[Field]) {
    let mut used: HashMap<String, &Field> = HashMap::new();
    for field in fields {
        let Some(counter) = &field.attrs.counter else {
            continue;
        };
        let Some(target) = counter_target(field, fields) else {
            let names: Vec<_> =
                fields.iter().filter(|f| !std::ptr::eq(*f, field)).map(|f| format!("`{}`", f.rust_name)).collect();
            cx.error_spanned_by(
                counter,
                rules::COUNTER_FIELD,
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
            cx.error_spanned_by(
                counter,
                rules::COUNTER_FIELD,
                "an array cannot be its own counter; name an integer field beside it that holds its size",
            );
            continue;
        }
        let c = &counter.value;
        match ty::classify(target.ty) {
            // Aliases and other paths (`TyKind::Other`) are left to the generated const assertion, which sees the
            // real type; an unfaithful integer (`u64`) is already reported at the field.
            TyKind::Int | TyKind::Other | TyKind::Unfaithful { .. } => {
                if !target.is_always_written() {
                    cx.error_spanned_by(
                        counter, rules::COUNTER_INTEGER,
                        format!(
                            "counter `{c}` is not always written (`skip_serializing_if`), but the server compares it with \
                             the array's size on every write; remove the `skip_serializing_if`"
                        ),
                    );
                }
            }
            TyKind::Option(inner) => {
                let plain = match ty::classify(inner) {
                    TyKind::Int => ty::display(inner),
                    _ => "i32".to_owned(),
                };
                cx.error_spanned_by(
                    counter, rules::COUNTER_INTEGER,
                    format!(
                        "counter `{c}` is `{}`, but a counter is always present: the server compares it with the \
                         array's size on every write; make it a plain `{plain}` (an empty array counts 0)",
                        ty::display(target.ty)
                    ),
                );
            }
            _ => cx.error_spanned_by(
                counter, rules::COUNTER_INTEGER,
                format!(
                    "counter `{c}` must be an integer field (`i32`, `i64` or `u32`) holding the array's size; it is `{}`",
                    ty::display(target.ty)
                ),
            ),
        }
        if target.key == "_id" {
            cx.error_spanned_by(counter, rules::COUNTER_FIELD, "`_id` is immutable and cannot count anything");
        }
        if target.attrs.counter.is_some() {
            cx.error_spanned_by(
                counter,
                rules::COUNTER_FIELD,
                format!("counter `{}` is itself an array with a counter", counter.value),
            );
        }
        if let Some(first) = used.get(&counter.value) {
            cx.error_spanned_by(
                counter,
                rules::COUNTER_FIELD,
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

/// `id-objectid`: `_id` is an ObjectId unless chosen explicitly.
fn check_id(cx: &Ctxt, fields: &[Field]) {
    for field in fields {
        let is_id = field.key == "_id" && field.is_stored();
        match (&field.attrs.custom_id, is_id) {
            (None, true)
                if !ty::is_object_id(field.ty) && field.attrs.converter.is_none() && !field.attrs.unknown_odm =>
            {
                cx.error_spanned_by(
                    field.ty,
                    rules::ID_OBJECTID,
                    "`_id` should be the default ObjectId (custom `_id` values slow inserts); use \
                 `odm::bson::oid::ObjectId`, or add `#[odm(custom_id)]` to choose another type on purpose",
                )
            }
            (Some(c), false) => cx.error_spanned_by(
                c,
                rules::ID_OBJECTID,
                "`custom_id` applies only to the field stored as `_id` (`#[serde(rename = \"_id\")]`)",
            ),
            _ => {}
        }
    }
}

fn check_enum(cx: &Ctxt, cont: &Container, variants: &[Variant], limit: usize) {
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
                check_field_type(cx, field);
            }
            Style::Struct(fields) => {
                // Internally tagged: the tag shares the variant's document.
                let tag_here = if content.is_none() { tag.map(|t| (t.value.as_str(), &t.tokens)) } else { None };
                check_fields(cx, cont, fields, limit, tag_here);
                if cont.is_polymorphic() {
                    // A polymorphic model's counter checks are guarded by the discriminator, variant by variant.
                    check_counters(cx, fields);
                    check_id(cx, fields);
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
fn check_polymorphic(cx: &Ctxt, cont: &Container, variants: &[Variant]) {
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
fn check_internally_tagged_newtype(cx: &Ctxt, v: &Variant, field: &Field) {
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
