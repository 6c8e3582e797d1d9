//! `read_concern`, `write_concern(...)` and `read_preference` on a model: the consistency every read and write of
//! its collection asks for.

use super::common::Sp;
use crate::internals::ctxt::Ctxt;
use crate::internals::rules;
use crate::internals::symbol::{Symbol, J, JOURNAL, TIMEOUT_MS, W, WTIMEOUT};
use quote::ToTokens;
use syn::meta::ParseNestedMeta;

pub const READ_CONCERNS: &[&str] = &["local", "available", "majority", "linearizable", "snapshot"];
pub const READ_PREFERENCES: &[&str] = &["primary", "primaryPreferred", "secondary", "secondaryPreferred", "nearest"];

/// `write_concern(w = "majority" | N, j = true, timeout_ms = 5000)`.
pub struct WriteConcernAttr {
    pub tokens: proc_macro2::TokenStream,
    /// `Ok(n)` for a node count, `Err(tag)` for `"majority"` or a tag set name.
    pub w: Option<Result<u32, String>>,
    pub journal: Option<bool>,
    pub timeout_ms: Option<u64>,
}

pub fn parse_choice(cx: &Ctxt, meta: &ParseNestedMeta, what: Symbol, choices: &[&str]) -> Option<Sp<String>> {
    let lit = match meta.value().and_then(|v| v.parse::<syn::LitStr>()) {
        Ok(l) => l,
        Err(_) => {
            cx.error_spanned_by(&meta.path, rules::ATTR_SYNTAX, format!("expected `{what} = \"{}\"`", choices[0]));
            return None;
        }
    };
    let v = lit.value();
    if !choices.contains(&v.as_str()) {
        let list: Vec<String> = choices.iter().map(|c| format!("`{c}`")).collect();
        cx.error_spanned_by(
            &lit,
            rules::CONCERN_VALUE,
            format!("unknown {what} `{v}`: expected one of {}", list.join(", ")),
        );
        return None;
    }
    Some(Sp { value: v, tokens: lit.into_token_stream() })
}

pub fn parse_write_concern(cx: &Ctxt, meta: &ParseNestedMeta) -> WriteConcernAttr {
    let mut out = WriteConcernAttr { tokens: meta.path.to_token_stream(), w: None, journal: None, timeout_ms: None };
    let result = meta.parse_nested_meta(|inner| {
        let p = &inner.path;
        let value = inner.value().and_then(|v| v.parse::<syn::Lit>());
        let key = p.get_ident().map(ToString::to_string);
        let is = |k: Symbol| key.as_deref().is_some_and(|s| s == k);
        match value {
            Ok(syn::Lit::Int(n)) if is(W) => match n.base10_parse::<u32>() {
                Ok(n) => out.w = Some(Ok(n)),
                Err(_) => cx.error_spanned_by(
                    &n,
                    rules::CONCERN_VALUE,
                    format!("`{W}` is a number of nodes or a string such as `\"majority\"`"),
                ),
            },
            Ok(syn::Lit::Str(s)) if is(W) && !s.value().is_empty() => out.w = Some(Err(s.value())),
            Ok(syn::Lit::Bool(b)) if is(J) || is(JOURNAL) => out.journal = Some(b.value),
            Ok(syn::Lit::Int(n)) if is(TIMEOUT_MS) || is(WTIMEOUT) => match n.base10_parse::<u64>() {
                Ok(n) => out.timeout_ms = Some(n),
                Err(_) => {
                    cx.error_spanned_by(&n, rules::CONCERN_VALUE, format!("`{TIMEOUT_MS}` is a number of milliseconds"))
                }
            },
            _ => cx.error_spanned_by(
                p,
                rules::CONCERN_VALUE,
                "expected `write_concern(w = \"majority\" | <nodes>, j = true, timeout_ms = <ms>)` (`w > 1` or \
                 `majority` where consistency matters)",
            ),
        }
        Ok(())
    });
    if let Err(e) = result {
        cx.syn_error(e);
    }
    if let (Some(Ok(0)), Some(true)) = (&out.w, out.journal) {
        cx.error_spanned_by(
            &out.tokens,
            rules::CONCERN_JOURNAL,
            "`w = 0` with `j = true` is refused by the driver: an unacknowledged write cannot be journaled",
        );
    }
    out
}
