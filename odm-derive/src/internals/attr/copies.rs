//! `#[odm(copies(model = "Employee", by = "id"))]`: an embedded struct that copies fields of another model (an
//! extended reference); and the same shape on an array field, `overflow(model = "Review", owner = "product_id")`
//! (the subset pattern: the model that holds the elements pushed out of the array).

use super::common::{duplicate, skip_rest};
use crate::internals::ctxt::Ctxt;
use crate::internals::rules::{self, Rule};
use crate::internals::symbol::{Symbol, BY, MODEL, OVERFLOW, OWNER};
use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::LitStr;

/// `copies(model = "…", by = "…")` or `overflow(model = "…", owner = "…")`: another model, and the field that
/// links the two by an `_id`.
pub struct CopiesAttr {
    /// `copies` or `overflow`, where errors about the attribute point.
    pub tokens: TokenStream,
    /// The other model's type, with the literal it was read from.
    pub model: Option<(syn::Path, LitStr)>,
    /// The field holding the other's `_id` (`by` of a copy, `owner` of an overflow model).
    pub by: Option<LitStr>,
}

/// How one spelling of the attribute reads: its name, the name of its link option, an example, and the rule a
/// missing argument list breaks.
struct Spelling {
    name: &'static str,
    link: Symbol,
    example: &'static str,
    what: &'static str,
    rule: Rule,
}

pub fn parse_copies(cx: &Ctxt, meta: &ParseNestedMeta) -> CopiesAttr {
    let example = "`copies(model = \"Employee\", by = \"id\")`";
    let what = "name the copied model and its id field";
    parse(cx, meta, Spelling { name: "copies", link: BY, example, what, rule: rules::COPY_SOURCE })
}

/// `overflow(model = "Review", owner = "product_id")` on an array field.
pub fn parse_overflow(cx: &Ctxt, meta: &ParseNestedMeta) -> CopiesAttr {
    let example = "`overflow(model = \"Review\", owner = \"product_id\")`";
    let what = "name the model that holds the elements pushed out, and its field holding this model's `_id`";
    let name = OVERFLOW.as_str();
    parse(cx, meta, Spelling { name, link: OWNER, example, what, rule: rules::ARRAY_OVERFLOW })
}

fn parse(cx: &Ctxt, meta: &ParseNestedMeta, spelling: Spelling) -> CopiesAttr {
    let Spelling { name: attr_name, link, example, what: needs, rule } = spelling;
    let mut out = CopiesAttr { tokens: meta.path.to_token_stream(), model: None, by: None };
    if !meta.input.peek(syn::token::Paren) {
        cx.error_spanned_by(&meta.path, rule, format!("{needs}: {example}"));
        skip_rest(meta);
        return out;
    }
    let mut seen: Vec<(Symbol, TokenStream)> = Vec::new();
    let result = meta.parse_nested_meta(|inner| {
        let p = &inner.path;
        let what = if p == MODEL {
            MODEL
        } else if p == link {
            link
        } else {
            let name = p.to_token_stream().to_string();
            cx.error_spanned_by(p, rules::ATTR_UNKNOWN, format!("unknown `{attr_name}` option `{name}`: {example}"));
            skip_rest(&inner);
            return Ok(());
        };
        match seen.iter().find(|(n, _)| *n == what) {
            Some((_, first)) => duplicate(cx, &format!("{attr_name} option"), what.as_str(), first, p),
            None => seen.push((what, p.to_token_stream())),
        }
        let Ok(lit) = inner.value().and_then(|v| v.parse::<LitStr>()) else {
            cx.error_spanned_by(p, rules::ATTR_SYNTAX, format!("expected a string: {example}"));
            return Ok(());
        };
        if what == link {
            out.by = Some(lit);
        } else {
            match lit.parse::<syn::Path>() {
                Ok(path) => out.model = Some((path, lit)),
                Err(_) => cx.error_spanned_by(
                    &lit,
                    rule,
                    format!("`{}` is not a type path: name the model, {example}", lit.value()),
                ),
            }
        }
        Ok(())
    });
    if let Err(e) = result {
        cx.error_spanned_by(&meta.path, rules::ATTR_SYNTAX, format!("{e}: {example}"));
    }
    out
}
