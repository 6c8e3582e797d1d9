//! `read_concern`, `write_concern(...)` and `read_preference` on a model: the consistency every read and write of
//! its collection asks for.

use super::common::Sp;
use crate::internals::ctxt::Ctxt;
use crate::internals::rules;
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

pub fn parse_choice(cx: &Ctxt, meta: &ParseNestedMeta, what: &str, choices: &[&str]) -> Option<Sp<String>> {
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
        match (p.get_ident().map(ToString::to_string).as_deref(), value) {
            (Some("w"), Ok(syn::Lit::Int(n))) => match n.base10_parse::<u32>() {
                Ok(n) => out.w = Some(Ok(n)),
                Err(_) => cx.error_spanned_by(
                    &n,
                    rules::CONCERN_VALUE,
                    "`w` is a number of nodes or a string such as `\"majority\"`",
                ),
            },
            (Some("w"), Ok(syn::Lit::Str(s))) if !s.value().is_empty() => out.w = Some(Err(s.value())),
            (Some("j" | "journal"), Ok(syn::Lit::Bool(b))) => out.journal = Some(b.value),
            (Some("timeout_ms" | "wtimeout"), Ok(syn::Lit::Int(n))) => match n.base10_parse::<u64>() {
                Ok(n) => out.timeout_ms = Some(n),
                Err(_) => cx.error_spanned_by(&n, rules::CONCERN_VALUE, "`timeout_ms` is a number of milliseconds"),
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
