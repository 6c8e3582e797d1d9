//! The computed-field rules (`computed-*`): a field declaring `sum`, `min` or `max = "array.field"` names an array
//! beside it whose elements its value can follow, and has the type that value takes. Whether the element field
//! exists and has a type the aggregate fits is for the generated assertion, which sees the element type's table.

use crate::internals::ast::Field;
use crate::internals::ctxt::Ctxt;
use crate::internals::resolve::FieldFacts;
use crate::internals::rules;
use crate::internals::symbol::SUM;
use crate::internals::ty::{self, TyKind};

pub(super) fn check(cx: &Ctxt, fields: &[Field], facts: &FieldFacts) {
    for (i, field) in fields.iter().enumerate() {
        let Some((aggregate, path)) = field.attrs.computed.first() else { continue };
        for (other, extra) in &field.attrs.computed[1..] {
            cx.error_spanned_by(
                extra,
                rules::COMPUTED_FIELD,
                format!(
                    "`{}` already holds the {} of `{}`; a field holds one aggregate: declare the {} in a field of \
                     its own",
                    field.rust_name,
                    aggregate.as_str(),
                    path.value,
                    other.as_str()
                ),
            );
        }
        if field.key == "_id"
            || facts.is_counter(field)
            || field.attrs.counter.is_some()
            || field.attrs.revision.is_some()
        {
            cx.error_spanned_by(
                path,
                rules::COMPUTED_FIELD,
                format!(
                    "`{}` is `_id`, a counter, a counted array or the revision, which odm already writes; declare \
                     the {} in a field of its own",
                    field.rust_name,
                    aggregate.as_str()
                ),
            );
            continue;
        }
        if path.value.contains(',') {
            addends(cx, fields, facts, i, field, *aggregate == SUM, path);
        } else {
            source(cx, fields, facts, i, field, path);
        }
        target_type(cx, field, *aggregate == SUM, aggregate.as_str(), &path.value);
    }
}

/// `computed-source`: the path names an array beside the field (and at most one field of its elements), which no
/// push trims.
fn source(
    cx: &Ctxt,
    fields: &[Field],
    facts: &FieldFacts,
    i: usize,
    field: &Field,
    path: &crate::internals::attr::Sp<String>,
) {
    let value = &path.value;
    let (array, of) = value.split_once('.').unwrap_or((value, ""));
    if of.contains('.') {
        cx.error_spanned_by(
            path,
            rules::COMPUTED_SOURCE,
            format!(
                "`{value}` goes deeper than one field of the elements; name the array and one field of its elements \
                 (`reviews.stars`), or the array alone for an array of numbers"
            ),
        );
        return;
    }
    let Some(at) = facts.of(field).computed_from else {
        let arrays: Vec<String> = fields
            .iter()
            .filter(|f| matches!(ty::classify(f.ty), TyKind::Array { .. }))
            .map(|f| format!("`{}`", f.rust_name))
            .collect();
        let arrays = if arrays.is_empty() { "none".to_owned() } else { arrays.join(", ") };
        cx.error_spanned_by(
            path,
            rules::COMPUTED_SOURCE,
            format!(
                "`{array}` is not a field of this struct; name an array beside `{}` (arrays here: {arrays})",
                field.rust_name
            ),
        );
        return;
    };
    let source = &fields[at];
    if at == i {
        cx.error_spanned_by(
            path,
            rules::COMPUTED_SOURCE,
            "a field cannot be computed from itself; name an array beside it",
        );
        return;
    }
    let elements = match ty::classify(source.ty) {
        TyKind::Array { .. } => true,
        TyKind::Option(inner) => matches!(ty::classify(inner), TyKind::Array { .. }),
        _ => false,
    };
    if !elements || source.attrs.converter.is_some() || source.attrs.bson_type.is_some() {
        cx.error_spanned_by(
            path,
            rules::COMPUTED_SOURCE,
            format!(
                "`{array}` is not an array odm stores element by element (`Vec<T>`, a set, `[T; N]`, without a \
                 converter); a computed field follows an array's elements"
            ),
        );
        return;
    }
    if source.attrs.keep_last.is_some() {
        cx.error_spanned_by(
            path,
            rules::COMPUTED_SOURCE,
            format!(
                "`{array}` is `keep_last`: its pushes cut elements the update does not know, so the computed field \
                 could not follow; drop `keep_last` (and keep the array bounded by `max_items`), or compute the value \
                 when reading"
            ),
        );
    }
}

/// `computed-source` for a sum of fields (`sum = "subtotal, shipping"`): each names an integer field beside it,
/// always written; a minimum or maximum of fields is not offered.
fn addends(
    cx: &Ctxt,
    fields: &[Field],
    facts: &FieldFacts,
    i: usize,
    field: &Field,
    sum: bool,
    path: &crate::internals::attr::Sp<String>,
) {
    if !sum {
        cx.error_spanned_by(
            path,
            rules::COMPUTED_SOURCE,
            "a minimum or maximum of fields is not offered: when the field holding it is lowered, which one holds \
             it next is unknown to an update; compute it when reading, or declare a sum (`sum = \"a, b\"`)",
        );
        return;
    }
    for (name, at) in &facts.of(field).sum_of {
        let Some(at) = *at else {
            let ints: Vec<String> = fields
                .iter()
                .filter(|f| matches!(ty::classify(f.ty), TyKind::Int))
                .map(|f| format!("`{}`", f.rust_name))
                .collect();
            let ints = if ints.is_empty() { "none".to_owned() } else { ints.join(", ") };
            cx.error_spanned_by(
                path,
                rules::COMPUTED_SOURCE,
                format!(
                    "`{name}` is not a field of this struct; name integer fields beside `{}` (here: {ints})",
                    field.rust_name
                ),
            );
            continue;
        };
        let f = &fields[at];
        let plain = matches!(ty::classify(f.ty), TyKind::Int) && f.is_always_written() && f.attrs.converter.is_none();
        if at == i || !plain || facts.is_counter(f) || facts.of(f).computed_from.is_some() {
            cx.error_spanned_by(
                path,
                rules::COMPUTED_SOURCE,
                format!(
                    "`{name}` cannot be added up: a sum of fields adds plain integer fields beside it (`i32`, `i64`), \
                     always written, that odm does not compute itself (not the sum, a counter or another computed \
                     field)"
                ),
            );
        }
    }
}

/// `computed-type`: a sum is an `i64`, always written; a minimum or maximum an `Option`, absent when `None`.
fn target_type(cx: &Ctxt, field: &Field, sum: bool, aggregate: &str, path: &str) {
    let name = &field.rust_name;
    let shown = ty::display(field.ty);
    if sum {
        let is_i64 = matches!(ty::classify(field.ty), TyKind::Int) && shown == "i64";
        if !is_i64 || !field.is_always_written() || field.attrs.converter.is_some() {
            cx.error_spanned_by(
                field.ty,
                rules::COMPUTED_TYPE,
                format!(
                    "`{name}` holds the sum of `{path}`, so it is a plain `i64`, always written (an empty array sums \
                     to 0; a narrower integer could overflow); it is `{shown}`"
                ),
            );
        }
        return;
    }
    let absent = field.attrs.skip_serializing_if.is_some() && field.attrs.nullable.is_none();
    if !matches!(ty::classify(field.ty), TyKind::Option(_)) || !absent {
        cx.error_spanned_by(
            field.ty,
            rules::COMPUTED_TYPE,
            format!(
                "`{name}` holds the {aggregate} of `{path}`, which an empty array does not have: make it an `Option` \
                 of the values' type, absent when `None` (`#[serde(skip_serializing_if = \"Option::is_none\")]`, not \
                 `nullable`: a stored `null` would win every `$min`); it is `{shown}`"
            ),
        );
    }
}
