//! The rules of one document level: its keys (`key-*`), then each field's type, date and array rules
//! (`types.rs`).

use super::names;
use super::types::check_field_type;
use crate::internals::ast::{Container, Data, Field};
use crate::internals::ctxt::Ctxt;
use crate::internals::resolve::FieldFacts;
use crate::internals::rules::{self};
use crate::internals::symbol::RENAME;
use std::collections::HashMap;

/// The key rules (`key-*`) for one document level; then the type, date and array rules per field.
pub(super) fn check_fields(
    cx: &Ctxt,
    cont: &Container,
    fields: &[Field],
    limit: usize,
    tag: Option<(&str, &proc_macro2::TokenStream)>,
    facts: &FieldFacts,
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
        check_field_type(cx, field, facts);
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
