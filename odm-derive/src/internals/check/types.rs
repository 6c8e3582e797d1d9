//! The type (`type-*`), date (`date-*`) and array (`array-*`) rules of one field.

use crate::internals::ast::Field;
use crate::internals::ctxt::Ctxt;
use crate::internals::resolve::FieldFacts;
use crate::internals::rules::{self, Rule};
use crate::internals::source::{Source, BSON_TYPES};
use crate::internals::symbol::{BSON_TYPE, COUNTER, MAX_ITEMS, MAX_LEN, MIN_ITEMS, MIN_LEN, UNBOUNDED, UNIQUE_ITEMS};
use crate::internals::ty::{self, TyKind};

/// The type (`type-*`), date (`date-*`) and array (`array-*`) rules for one field.
pub(super) fn check_field_type(cx: &Ctxt, field: &Field, facts: &FieldFacts) {
    let facts = facts.of(field);
    let a = &field.attrs;
    let ty = field.ty;
    let name = &field.rust_name;

    if let (Some(conv), Some((rule, why))) = (&a.converter, facts.converter_error) {
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

    // Option: absent, not null (`type-option-absent`). Each type is classified once (a debug build's work for
    // every field of every derived type).
    let outer = ty::classify(ty);
    let (inner, is_option) = match &outer {
        TyKind::Option(inner) => (*inner, true),
        _ => (ty, false),
    };
    let inner_kind = if is_option { ty::classify(inner) } else { outer };
    if is_option {
        if let TyKind::Option(_) = inner_kind {
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
    let (mut shape, mut kind) = (inner, inner_kind);
    while let TyKind::Boxed(b) = kind {
        (shape, kind) = (b, ty::classify(b));
    }
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
    let (array_ok, string_ok) = match &facts.source {
        Source::Fixed(alias) => (Some(alias == "array"), Some(alias == "string")),
        Source::Mixed => (None, None),
        Source::Trait => match kind {
            TyKind::Other => (None, None),
            _ => (Some(is_array), Some(matches!(kind, TyKind::Str))),
        },
    };
    // Rendered only for a message: showing a type costs a round trip to the compiler.
    let what_it_is = || match &facts.source {
        Source::Fixed(alias) => format!("is stored as `{alias}`"),
        _ => format!("is `{}`", ty::display(shape)),
    };
    let keywords = [
        (array_ok, "array", a.max_items.as_ref().map(|s| s.tokens.clone()), MAX_ITEMS, rules::ARRAY_KEYWORD),
        (array_ok, "array", a.min_items.as_ref().map(|s| s.tokens.clone()), MIN_ITEMS, rules::ARRAY_KEYWORD),
        (array_ok, "array", a.unbounded.as_ref().map(|s| s.tokens.clone()), UNBOUNDED, rules::ARRAY_KEYWORD),
        (array_ok, "array", a.counter.as_ref().map(|s| s.tokens.clone()), COUNTER, rules::ARRAY_KEYWORD),
        (array_ok, "array", a.unique_items.as_ref().map(|s| s.tokens.clone()), UNIQUE_ITEMS, rules::ARRAY_KEYWORD),
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
pub(super) fn type_problem(kind: &TyKind, ty: &syn::Type) -> Option<(Rule, String)> {
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
pub(super) fn element_problem(ty: &syn::Type) -> Option<(Rule, String)> {
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
pub(super) fn looks_like_date(rust_name: &str, key: &str) -> bool {
    let check = |n: &str| {
        let lower = n.to_ascii_lowercase();
        ["date", "time", "timestamp", "datetime", "created", "updated", "deleted", "birthday", "dob", "expires"]
            .contains(&lower.as_str())
            || ["_at", "_date", "_time", "_on", "_ts", "_timestamp"].iter().any(|s| lower.ends_with(s))
            || ["At", "Date", "Time", "On"].iter().any(|s| n.ends_with(s) && n.len() > s.len())
    };
    check(rust_name) || check(key)
}
