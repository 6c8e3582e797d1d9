//! Attributes on an enum variant.

use super::common::{skip_rest, Sp};
use super::values::*;
use crate::internals::case::RenameRule;
use crate::internals::ctxt::Ctxt;
use crate::internals::rules::{self};
use crate::internals::symbol::*;

/// Attributes on an enum variant.
pub struct Variant {
    pub rename: Option<Sp<String>>,
    pub rename_all: Option<Sp<RenameRule>>,
    pub skip: bool,
}

impl Variant {
    pub fn from_ast(cx: &Ctxt, attrs: &[syn::Attribute]) -> Self {
        let mut rename = Attr::serde(cx, RENAME);
        let mut rename_all = Attr::serde(cx, RENAME_ALL);
        let mut skip = false;
        each_nested(cx, attrs, ODM, |meta| {
            cx.error_spanned_by(
                &meta.path,
                rules::ATTR_UNKNOWN,
                "odm has no attributes for enum variants: put `#[odm(...)]` on the enum or on a variant's fields",
            );
            skip_rest(meta);
        });
        each_nested(cx, attrs, SERDE, |meta| {
            let k = Name::of(&meta.path);
            if k == RENAME {
                if let Some(l) = ser_name(cx, meta) {
                    rename.set(&l, l.value());
                }
            } else if k == RENAME_ALL {
                if let Some(r) = rename_rule(cx, meta) {
                    rename_all.set(r.tokens, r.value);
                }
            } else if k == SKIP || k == SKIP_SERIALIZING {
                skip = true;
            } else if k == UNTAGGED {
                refuse_serde(
                    cx,
                    meta,
                    rules::ENUM_TAGGED,
                    "an untagged variant is written without its tag, so the validator cannot tell it apart",
                );
            } else if k == WITH || k == SERIALIZE_WITH {
                refuse_serde(cx, meta, rules::SERDE_UNSUPPORTED, "odm cannot see what this variant writes");
            } else if [ALIAS, OTHER, SKIP_DESERIALIZING, DESERIALIZE_WITH, BORROW, BOUND].iter().any(|w| k == *w) {
                skip_rest(meta);
            } else {
                unknown_serde(cx, meta, "variant");
            }
        });
        Variant { rename: rename.get(), rename_all: rename_all.get(), skip }
    }
}
