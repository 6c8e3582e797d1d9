//! The rules of a model's ids: `_id` is an ObjectId unless chosen (`id-objectid`), and a field named or stored as
//! `id` is the document's `_id` unless it says otherwise (`id-field`).

use crate::internals::ast::{Container, Derive, Field};
use crate::internals::ctxt::Ctxt;
use crate::internals::rules::{self};
use crate::internals::ty;

/// The id rules of one document level: a model's struct, or one struct variant of a polymorphic model. On an
/// embedded type only the misplaced opt-outs are reported: its `id` is a reference, not a second document id.
pub(super) fn check_ids(cx: &Ctxt, cont: &Container, fields: &[Field]) {
    if cont.derive == Derive::Model {
        check_id(cx, fields);
        check_id_field(cx, fields);
        return;
    }
    for (field, not_id) in fields.iter().filter_map(|f| Some((f, f.attrs.not_id.as_ref()?))) {
        cx.error_spanned_by(
            not_id,
            rules::ID_FIELD,
            format!(
                "`not_id` on field `{}` of an embedded type changes nothing: only a collection model's own `id` \
                 field is checked against `_id`; remove it",
                field.rust_name
            ),
        );
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

/// True when `field` looks like the document's id to someone used to other ORMs: named `id` in Rust, or stored
/// under the key `id`.
fn named_id(field: &Field) -> bool {
    field.rust_name == "id" || field.key == "id"
}

/// `id-field`: a model's field named (or stored as) `id` is stored as `_id`. Without the rename every document holds
/// a second id beside the `_id` the server adds, and lookups by `id` miss the `_id` index; a model that keeps
/// another id on purpose says `#[odm(not_id)]`.
fn check_id_field(cx: &Ctxt, fields: &[Field]) {
    let declared = fields.iter().find(|f| f.key == "_id" && f.is_stored());
    for field in fields {
        let caught = named_id(field) && field.key != "_id" && field.is_stored();
        match (caught, &field.attrs.not_id) {
            (true, None) if !field.attrs.unknown_odm => {
                let stored = if field.key == field.rust_name {
                    format!("field `{}` is stored as `{}`", field.rust_name, field.key)
                } else {
                    format!("field `{}` is stored as `{}`, not as `_id`", field.rust_name, field.key)
                };
                let fix = match declared {
                    Some(id) => format!(
                        "this model stores `{}` as `_id` already, so give this field a name that says whose id it \
                         is (`external_id`), or add `#[odm(not_id)]` to keep it as it is on purpose",
                        id.rust_name
                    ),
                    None if ty::is_object_id(field.ty) => "add `#[serde(rename = \"_id\")]` to make it the \
                         document's `_id`, or `#[odm(not_id)]` if the model keeps a second id on purpose"
                        .to_owned(),
                    None => "add `#[serde(rename = \"_id\")]` and `#[odm(custom_id)]` to make it the document's \
                         `_id`, or `#[odm(not_id)]` if it is another id kept on purpose (another system's)"
                        .to_owned(),
                };
                let at = match (field.rust_name == "id", field.ident) {
                    (true, Some(ident)) => quote::ToTokens::to_token_stream(ident),
                    _ => field.key_tokens.clone(),
                };
                cx.error_spanned_by(
                    at,
                    rules::ID_FIELD,
                    format!(
                        "{stored}: every document would hold a second id beside the `_id` the server gives it, and \
                         finding a document by `{}` would not use the `_id` index; {fix}",
                        field.key
                    ),
                );
            }
            (false, Some(not_id)) => {
                let why = if !field.is_stored() {
                    "is never stored".to_owned()
                } else if field.key == "_id" {
                    "is the document's `_id`".to_owned()
                } else {
                    format!("is stored as `{}`", field.key)
                };
                cx.error_spanned_by(
                    not_id,
                    rules::ID_FIELD,
                    format!(
                        "`not_id` applies only to a stored field named or stored as `id` that is not the document's \
                         `_id`; field `{}` {why}, so remove `not_id`",
                        field.rust_name
                    ),
                )
            }
            _ => {}
        }
    }
}
