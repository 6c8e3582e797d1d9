//! `#[odm(index(...))]`, `#[odm(capped(...))]`: parsing only (rules live in `check_index.rs`).

use super::ctxt::Ctxt;
use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::{Lit, LitInt, LitStr};

/// One declared index, as written.
pub struct IndexAttr {
    /// The `index` keyword (where index-level errors point).
    pub span_tokens: TokenStream,
    pub keys: Option<LitStr>,
    pub name: Option<LitStr>,
    pub unique: Option<TokenStream>,
    pub sparse: Option<TokenStream>,
    pub hidden: Option<TokenStream>,
    pub ttl: Option<(i64, LitInt)>,
    pub partial: Option<LitStr>,
    pub collation: Option<(Vec<(String, Lit)>, TokenStream)>,
    pub weights: Option<LitStr>,
    pub default_language: Option<LitStr>,
}

/// `capped(size = .., max = ..)`.
pub struct CappedAttr {
    pub tokens: TokenStream,
    pub size: Option<(u64, LitInt)>,
    pub max: Option<(u64, LitInt)>,
}

const INDEX_KEYS: &str = "`keys`, `name`, `unique`, `sparse`, `hidden`, `ttl`, `partial`, `collation`, `weights`, \
                          `default_language`";

fn str_value(cx: &Ctxt, what: &str, meta: &ParseNestedMeta) -> Option<LitStr> {
    match meta.value().and_then(|v| v.parse::<LitStr>()) {
        Ok(l) => Some(l),
        Err(_) => {
            cx.error_spanned_by(&meta.path, format!("expected `{what} = \"...\"`"));
            None
        }
    }
}

fn int_value(cx: &Ctxt, what: &str, meta: &ParseNestedMeta) -> Option<(i64, LitInt)> {
    match meta.value().and_then(|v| v.parse::<LitInt>()) {
        Ok(l) => match l.base10_parse::<i64>() {
            Ok(n) if n >= 0 => Some((n, l)),
            _ => {
                cx.error_spanned_by(&l, format!("`{what}` must be a non-negative integer"));
                None
            }
        },
        Err(_) => {
            cx.error_spanned_by(&meta.path, format!("expected `{what} = 3600`"));
            None
        }
    }
}

pub fn parse_index(cx: &Ctxt, meta: &ParseNestedMeta) -> IndexAttr {
    let mut out = IndexAttr {
        span_tokens: meta.path.to_token_stream(),
        keys: None,
        name: None,
        unique: None,
        sparse: None,
        hidden: None,
        ttl: None,
        partial: None,
        collation: None,
        weights: None,
        default_language: None,
    };
    let result = meta.parse_nested_meta(|inner| {
        let p = &inner.path;
        let dup = |set: bool| {
            if set {
                cx.error_spanned_by(p, "duplicate index option: keep one");
            }
        };
        if p.is_ident("keys") {
            dup(out.keys.is_some());
            out.keys = str_value(cx, "keys", &inner);
        } else if p.is_ident("name") {
            dup(out.name.is_some());
            out.name = str_value(cx, "name", &inner);
        } else if p.is_ident("unique") {
            dup(out.unique.is_some());
            out.unique = Some(p.to_token_stream());
        } else if p.is_ident("sparse") {
            dup(out.sparse.is_some());
            out.sparse = Some(p.to_token_stream());
        } else if p.is_ident("hidden") {
            dup(out.hidden.is_some());
            out.hidden = Some(p.to_token_stream());
        } else if p.is_ident("ttl") || p.is_ident("expire_after_seconds") {
            dup(out.ttl.is_some());
            out.ttl = int_value(cx, "ttl", &inner);
        } else if p.is_ident("partial") {
            dup(out.partial.is_some());
            out.partial = str_value(cx, "partial", &inner);
        } else if p.is_ident("weights") {
            dup(out.weights.is_some());
            out.weights = str_value(cx, "weights", &inner);
        } else if p.is_ident("default_language") {
            dup(out.default_language.is_some());
            out.default_language = str_value(cx, "default_language", &inner);
        } else if p.is_ident("collation") {
            dup(out.collation.is_some());
            let mut fields = Vec::new();
            let r = inner.parse_nested_meta(|c| {
                let key = c.path.to_token_stream().to_string();
                match c.value().and_then(|v| v.parse::<Lit>()) {
                    Ok(lit) => fields.push((key, lit)),
                    Err(_) => cx.error_spanned_by(&c.path, "expected `key = value`, e.g. `collation(locale = \"fr\", strength = 2)`"),
                }
                Ok(())
            });
            if let Err(e) = r {
                cx.syn_error(e);
            }
            if !fields.iter().any(|(k, _)| k == "locale") {
                cx.error_spanned_by(p, "a collation needs a `locale`, e.g. `collation(locale = \"fr\", strength = 2)`");
            }
            out.collation = Some((fields, p.to_token_stream()));
        } else {
            let name = p.to_token_stream().to_string();
            cx.error_spanned_by(p, format!("unknown index option `{name}`: expected one of {INDEX_KEYS}"));
            let _ = inner.value().and_then(|v| v.parse::<Lit>());
        }
        Ok(())
    });
    if let Err(e) = result {
        cx.syn_error(e);
    }
    if out.keys.is_none() {
        cx.error_spanned_by(&meta.path, "an index needs its keys: `index(keys = \"merchant, status, -created_at\")`");
    }
    out
}

pub fn parse_capped(cx: &Ctxt, meta: &ParseNestedMeta) -> CappedAttr {
    let mut out = CappedAttr { tokens: meta.path.to_token_stream(), size: None, max: None };
    let result = meta.parse_nested_meta(|inner| {
        let p = &inner.path;
        if p.is_ident("size") || p.is_ident("max") {
            match inner.value().and_then(|v| v.parse::<LitInt>()) {
                Ok(l) => match l.base10_parse::<u64>() {
                    Ok(n) if n > 0 => {
                        if p.is_ident("size") {
                            out.size = Some((n, l));
                        } else {
                            out.max = Some((n, l));
                        }
                    }
                    _ => cx.error_spanned_by(&l, "capped limits are positive integers"),
                },
                Err(_) => cx.error_spanned_by(p, "expected `size = <bytes>` or `max = <documents>`"),
            }
        } else {
            cx.error_spanned_by(p, "unknown capped option: expected `size` (bytes) and optionally `max` (documents)");
            let _ = inner.value().and_then(|v| v.parse::<Lit>());
        }
        Ok(())
    });
    if let Err(e) = result {
        cx.syn_error(e);
    }
    if out.size.is_none() {
        cx.error_spanned_by(&meta.path, "a capped collection needs its size in bytes: `capped(size = 1048576, max = 1000)`");
    }
    out
}
