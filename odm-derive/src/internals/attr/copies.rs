//! `#[odm(copies(model = "Employee", by = "id"))]`: an embedded struct that copies fields of another model (an
//! extended reference).

use super::common::{duplicate, skip_rest};
use crate::internals::ctxt::Ctxt;
use crate::internals::rules;
use crate::internals::symbol::{Symbol, BY, MODEL};
use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::LitStr;

/// `copies(model = "…", by = "…")`.
pub struct CopiesAttr {
    /// `copies`, where errors about the attribute point.
    pub tokens: TokenStream,
    /// The source model's type, with the literal it was read from.
    pub model: Option<(syn::Path, LitStr)>,
    /// The field holding the source's `_id`.
    pub by: Option<LitStr>,
}

const EXAMPLE: &str = "`copies(model = \"Employee\", by = \"id\")`";

pub fn parse_copies(cx: &Ctxt, meta: &ParseNestedMeta) -> CopiesAttr {
    let mut out = CopiesAttr { tokens: meta.path.to_token_stream(), model: None, by: None };
    if !meta.input.peek(syn::token::Paren) {
        cx.error_spanned_by(
            &meta.path,
            rules::COPY_SOURCE,
            format!("name the copied model and its id field: {EXAMPLE}"),
        );
        skip_rest(meta);
        return out;
    }
    let mut seen: Vec<(Symbol, TokenStream)> = Vec::new();
    let result = meta.parse_nested_meta(|inner| {
        let p = &inner.path;
        let what = if p == MODEL {
            MODEL
        } else if p == BY {
            BY
        } else {
            let name = p.to_token_stream().to_string();
            cx.error_spanned_by(p, rules::ATTR_UNKNOWN, format!("unknown `copies` option `{name}`: {EXAMPLE}"));
            skip_rest(&inner);
            return Ok(());
        };
        match seen.iter().find(|(n, _)| *n == what) {
            Some((_, first)) => duplicate(cx, "copies option", what.as_str(), first, p),
            None => seen.push((what, p.to_token_stream())),
        }
        let Ok(lit) = inner.value().and_then(|v| v.parse::<LitStr>()) else {
            cx.error_spanned_by(p, rules::ATTR_SYNTAX, format!("expected a string: {EXAMPLE}"));
            return Ok(());
        };
        if what == BY {
            out.by = Some(lit);
        } else {
            match lit.parse::<syn::Path>() {
                Ok(path) => out.model = Some((path, lit)),
                Err(_) => cx.error_spanned_by(
                    &lit,
                    rules::COPY_SOURCE,
                    format!("`{}` is not a type path: name the copied model, {EXAMPLE}", lit.value()),
                ),
            }
        }
        Ok(())
    });
    if let Err(e) = result {
        cx.error_spanned_by(&meta.path, rules::ATTR_SYNTAX, format!("{e}: {EXAMPLE}"));
    }
    out
}
