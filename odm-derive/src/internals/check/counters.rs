//! The counter rules (`counter-*`).

use crate::internals::ast::Field;
use crate::internals::ctxt::Ctxt;
use crate::internals::resolve::FieldFacts;
use crate::internals::rules::{self};
use crate::internals::ty::{self, TyKind};
use std::collections::HashMap;

/// `counter-field` and `counter-integer`: the counter exists beside the array, is a plain integer, counts one array, and is not `_id`.
pub(super) fn check_counters(cx: &Ctxt, fields: &[Field], facts: &FieldFacts) {
    let mut used: HashMap<String, &Field> = HashMap::new();
    for field in fields {
        let Some(counter) = &field.attrs.counter else {
            continue;
        };
        let Some(target) = facts.counter_target(field, fields) else {
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
