//! `revision-field`: the one integer field odm guards and bumps on every write of a model (optimistic concurrency).
//! It must be a top-level, always-written integer of its own: not `_id`, a counter, a counted array or a shard-key
//! field, whose values change for other reasons or never.

use crate::internals::ast::{Container, Data, Derive, Field, Style};
use crate::internals::ctxt::Ctxt;
use crate::internals::resolve::Resolved;
use crate::internals::rules;
use crate::internals::ty::{self, TyKind};

/// What the fixes suggest: a field of its own.
const OWN_FIELD: &str = "add an integer field of its own: `#[serde(rename = \"rv\")] #[odm(revision)] revision: i64`";

pub fn check(cx: &Ctxt, cont: &Container, resolved: &Resolved) {
    if cont.derive == Derive::Embedded {
        for field in all_fields(&cont.data) {
            if let Some(r) = &field.attrs.revision {
                cx.error_spanned_by(
                    r,
                    rules::REVISION_FIELD,
                    format!(
                        "field `{}`: `revision` belongs on a top-level field of a `#[derive(Model)]` collection model: \
                         odm compares and bumps it on writes of the whole document, and an embedded value is never \
                         written alone; move the field to the model",
                        field.rust_name
                    ),
                );
            }
        }
        return;
    }
    let Data::Struct(fields) = &cont.data else { return };
    let Some(first) = resolved.revision else { return };
    for field in fields.iter().filter(|f| f.attrs.revision.is_some() && !std::ptr::eq(*f, first)) {
        cx.error_spanned_by(
            field.attrs.revision.as_ref().expect("marked"),
            rules::REVISION_FIELD,
            format!(
                "field `{}` is a second revision field, and `{}` is the revision already: a document has one \
                 revision, compared and bumped on every write; remove `revision` from one of them",
                field.rust_name, first.rust_name
            ),
        );
    }
    check_field(cx, first, fields, resolved);
}

/// Every field of a type, in struct variants and newtypes too.
fn all_fields<'f, 'a>(data: &'f Data<'a>) -> Vec<&'f Field<'a>> {
    match data {
        Data::Struct(fields) => fields.iter().collect(),
        Data::Newtype(field) => vec![&**field],
        Data::Enum(variants) => variants
            .iter()
            .flat_map(|v| match &v.style {
                Style::Struct(fields) => fields.iter().collect(),
                Style::Newtype(field) => vec![&**field],
                Style::Unit | Style::Tuple => Vec::new(),
            })
            .collect(),
    }
}

/// One error per revision field: the first thing wrong with it.
fn check_field(cx: &Ctxt, field: &Field, fields: &[Field], resolved: &Resolved) {
    let name = &field.rust_name;
    let a = &field.attrs;
    let at = a.revision.as_ref().expect("the revision field");
    let role = if field.key == "_id" {
        Some("is `_id`, which never changes once written".to_owned())
    } else if a.counter.is_some() {
        Some("is a counted array, not an integer".to_owned())
    } else if let Some(counted) = resolved.field_facts.counted_array(field, fields) {
        Some(format!("counts the array `{}` and changes with its length", counted.rust_name))
    } else if resolved.shard_fields().iter().any(|(f, _)| std::ptr::eq(*f, field)) {
        Some("is in the shard key, which never changes once written".to_owned())
    } else {
        None
    };
    if let Some(role) = role {
        return cx.error_spanned_by(
            at,
            rules::REVISION_FIELD,
            format!("field `{name}` {role}, so it cannot also count the document's revisions; {OWN_FIELD}"),
        );
    }
    if let Some(skip) = &a.skip_serializing {
        return cx.error_spanned_by(
            skip,
            rules::REVISION_FIELD,
            format!(
                "field `{name}` is the revision but is never stored (`skip`), so the server has nothing to compare; \
                 remove the `skip`"
            ),
        );
    }
    let kind = ty::classify(field.ty);
    if let TyKind::Option(inner) = kind {
        let plain = match ty::classify(inner) {
            TyKind::Int => ty::display(inner),
            _ => "i64".to_owned(),
        };
        return cx.error_spanned_by(
            field.ty,
            rules::REVISION_FIELD,
            format!(
                "revision `{name}` is `{}`, but a revision is always present: every guarded write compares it and \
                 bumps it; make it a plain `{plain}` (a new document starts at 0)",
                ty::display(field.ty)
            ),
        );
    }
    if let Some(skip_if) = &a.skip_serializing_if {
        return cx.error_spanned_by(
            skip_if,
            rules::REVISION_FIELD,
            format!(
                "revision `{name}` is not always written (`skip_serializing_if`), but every guarded write compares \
                 the stored revision; remove the `skip_serializing_if`"
            ),
        );
    }
    let fixed = [&a.converter, &a.bson_type].into_iter().flatten().map(|s| s.tokens.clone()).next();
    if let Some(tokens) = fixed.or_else(|| a.mixed.as_ref().map(|m| m.tokens.clone())) {
        return cx.error_spanned_by(
            tokens,
            rules::REVISION_FIELD,
            format!(
                "revision `{name}` declares its stored type (a serde converter, `bson_type` or `mixed`), but odm \
                 compares and increments the revision as the integer itself; remove the declaration"
            ),
        );
    }
    let shown = ty::display(field.ty);
    let wide = match field.ty {
        syn::Type::Path(p) => {
            p.path.segments.last().is_some_and(|s| ["i32", "i64", "u32"].iter().any(|w| s.ident == w))
        }
        _ => false,
    };
    match kind {
        TyKind::Int if wide => {}
        TyKind::Int => cx.error_spanned_by(
            field.ty,
            rules::REVISION_FIELD,
            format!(
                "revision `{name}` is `{shown}`, too narrow for a revision that grows by one on every write; use \
                 `i64`, `i32` or `u32`"
            ),
        ),
        // An alias or another path: the generated const assertion sees the real type.
        TyKind::Other => {}
        // `u64` and the like are reported at the field already.
        TyKind::Unfaithful { .. } => {}
        _ => cx.error_spanned_by(
            field.ty,
            rules::REVISION_FIELD,
            format!(
                "revision `{name}` must be an integer field (`i32`, `i64` or `u32`) that odm increments on every \
                 write; it is `{shown}`"
            ),
        ),
    }
}
