//! `#[odm(index(...))]`, `#[odm(capped(...))]`: parsing only (rules live in `check/index.rs`).

use super::common::{did_you_mean, duplicate, skip_rest};
use crate::internals::ctxt::Ctxt;
use crate::internals::rules;
use crate::internals::symbol::{self, Symbol, *};
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
    /// `ttl = 3600` as written (where TTL rules point).
    pub ttl_tokens: Option<TokenStream>,
    pub partial: Option<LitStr>,
    /// `variant = "purchase"` on a polymorphic model: the keys are that variant's fields, and the index holds its
    /// documents only.
    pub variant: Option<LitStr>,
    pub collation: Option<(Vec<(String, Lit)>, TokenStream)>,
    pub weights: Option<LitStr>,
    pub default_language: Option<LitStr>,
    /// Some option was malformed or unknown (already reported): rules that depend on the whole index stay quiet.
    pub malformed: bool,
    /// Built for a declared query: its `keys` were not written by the user, so messages do not quote them.
    pub for_query: bool,
}

impl IndexAttr {
    /// The ESR index the derive builds for a declared query no declared index serves.
    pub fn for_query(keys: &str, tokens: TokenStream) -> Self {
        let span = tokens.clone().into_iter().next().map_or_else(proc_macro2::Span::call_site, |t| t.span());
        IndexAttr { keys: Some(LitStr::new(keys, span)), for_query: true, ..Self::empty(tokens) }
    }

    /// An index with no options yet, declared at `tokens`.
    fn empty(tokens: TokenStream) -> Self {
        IndexAttr {
            span_tokens: tokens,
            keys: None,
            name: None,
            unique: None,
            sparse: None,
            hidden: None,
            ttl: None,
            ttl_tokens: None,
            partial: None,
            variant: None,
            collation: None,
            weights: None,
            default_language: None,
            malformed: false,
            for_query: false,
        }
    }
}

/// `capped(size = .., max = ..)`.
pub struct CappedAttr {
    pub tokens: TokenStream,
    pub size: Option<(u64, LitInt)>,
    pub max: Option<(u64, LitInt)>,
}

const INDEX_KEYS: &[Symbol] =
    &[KEYS, NAME, UNIQUE, SPARSE, HIDDEN, TTL, PARTIAL, COLLATION, WEIGHTS, DEFAULT_LANGUAGE, VARIANT];

/// The collation document's fields (server names) and the literal each takes.
const COLLATION_FIELDS: &[(Symbol, &str)] = &[
    (LOCALE, "string"),
    (CASE_LEVEL, "bool"),
    (CASE_FIRST, "string"),
    (STRENGTH, "int"),
    (NUMERIC_ORDERING, "bool"),
    (ALTERNATE, "string"),
    (MAX_VARIABLE, "string"),
    (BACKWARDS, "bool"),
    (NORMALIZATION, "bool"),
];

fn str_value(cx: &Ctxt, what: Symbol, example: &str, meta: &ParseNestedMeta) -> Option<LitStr> {
    match meta.value().and_then(|v| v.parse::<LitStr>()) {
        Ok(l) => Some(l),
        Err(_) => {
            cx.error_spanned_by(&meta.path, rules::ATTR_SYNTAX, format!("expected a string: `{what} = \"{example}\"`"));
            skip_rest(meta);
            None
        }
    }
}

fn int_value(cx: &Ctxt, what: Symbol, meta: &ParseNestedMeta) -> Option<(i64, LitInt)> {
    match meta.value().and_then(|v| v.parse::<LitInt>()) {
        Ok(l) => match l.base10_parse::<i64>() {
            Ok(n) if n >= 0 => Some((n, l)),
            _ => {
                cx.error_spanned_by(
                    &l,
                    rules::INDEX_TTL,
                    format!("`{what}` is a number of seconds, 0 or more: `{what} = 2592000` (30 days)"),
                );
                None
            }
        },
        Err(_) => {
            cx.error_spanned_by(
                &meta.path,
                rules::ATTR_SYNTAX,
                format!("expected a number of seconds: `{what} = 3600`"),
            );
            skip_rest(meta);
            None
        }
    }
}

/// A flag option (`unique`): written bare.
fn flag(cx: &Ctxt, meta: &ParseNestedMeta) -> Option<TokenStream> {
    if meta.input.peek(syn::Token![=]) || meta.input.peek(syn::token::Paren) {
        let name = meta.path.to_token_stream().to_string();
        cx.error_spanned_by(
            &meta.path,
            rules::ATTR_SYNTAX,
            format!("`{name}` is a flag: write `{name}` alone, without a value"),
        );
        skip_rest(meta);
        return None;
    }
    Some(meta.path.to_token_stream())
}

fn parse_collation(cx: &Ctxt, meta: &ParseNestedMeta) -> Option<Vec<(String, Lit)>> {
    let example = "e.g. `collation(locale = \"fr\", strength = 2)`";
    if !meta.input.peek(syn::token::Paren) {
        cx.error_spanned_by(&meta.path, rules::ATTR_SYNTAX, format!("expected the collation's fields, {example}"));
        skip_rest(meta);
        return None;
    }
    let mut fields = Vec::new();
    let mut ok = true;
    let r = meta.parse_nested_meta(|c| {
        let key = c.path.to_token_stream().to_string();
        let Some((_, want)) = COLLATION_FIELDS.iter().find(|(k, _)| key == *k) else {
            let hint = did_you_mean(&key, COLLATION_FIELDS.iter().map(|(k, _)| k.as_str()));
            let names: Vec<String> = COLLATION_FIELDS.iter().map(|(k, _)| format!("`{k}`")).collect();
            cx.error_spanned_by(
                &c.path,
                rules::INDEX_COLLATION,
                format!(
                    "unknown collation field `{key}`{hint}: expected one of {} (the server's names)",
                    names.join(", ")
                ),
            );
            ok = false;
            skip_rest(&c);
            return Ok(());
        };
        match c.value().and_then(|v| v.parse::<Lit>()) {
            Ok(lit) => {
                let fits = match (&lit, *want) {
                    (Lit::Str(_), "string") | (Lit::Bool(_), "bool") => true,
                    (Lit::Int(i), "int") => i.base10_parse::<u8>().is_ok_and(|n| (1..=5).contains(&n)),
                    _ => false,
                };
                if fits {
                    fields.push((key, lit));
                } else {
                    let what = match *want {
                        "string" => "a string",
                        "bool" => "`true` or `false`",
                        _ => "a level from 1 to 5",
                    };
                    cx.error_spanned_by(&lit, rules::INDEX_COLLATION, format!("collation `{key}` takes {what}"));
                    ok = false;
                }
            }
            Err(_) => {
                cx.error_spanned_by(&c.path, rules::ATTR_SYNTAX, format!("expected `{key} = value`, {example}"));
                ok = false;
                skip_rest(&c);
            }
        }
        Ok(())
    });
    if let Err(e) = r {
        cx.syn_error(e);
        return None;
    }
    if ok && !fields.iter().any(|(k, _)| *k == LOCALE) {
        cx.error_spanned_by(&meta.path, rules::INDEX_COLLATION, format!("a collation needs a `locale`, {example}"));
        ok = false;
    }
    ok.then_some(fields)
}

pub fn parse_index(cx: &Ctxt, meta: &ParseNestedMeta) -> IndexAttr {
    let mut out = IndexAttr::empty(meta.path.to_token_stream());
    if !meta.input.peek(syn::token::Paren) {
        cx.error_spanned_by(
            &meta.path,
            rules::INDEX_KEYS,
            "expected the index's keys: `index(keys = \"merchant, status, -created_at\")`",
        );
        skip_rest(meta);
        out.malformed = true;
        return out;
    }
    let mut malformed = false;
    // An unknown option may be misspelt `keys`: then "needs its keys" would only repeat the error.
    let mut keys_attempted = false;
    // Options seen so far, with where: a repeated one is reported at both places.
    let mut seen: Vec<(Symbol, TokenStream)> = Vec::new();
    let result = meta.parse_nested_meta(|inner| {
        let p = &inner.path;
        // `key` names the option however it is spelt (`ttl` or `expire_after_seconds`).
        let mut dup = |key: Symbol| match seen.iter().find(|(n, _)| *n == key) {
            Some((_, first)) => duplicate(cx, "index option", &p.to_token_stream().to_string(), first, p),
            None => seen.push((key, p.to_token_stream())),
        };
        if p == KEYS {
            dup(KEYS);
            out.keys = str_value(cx, KEYS, "merchant, -created_at", &inner);
            keys_attempted = true;
            malformed |= out.keys.is_none();
        } else if p == NAME {
            dup(NAME);
            out.name = str_value(cx, NAME, "idx_order_no", &inner);
        } else if p == UNIQUE {
            dup(UNIQUE);
            out.unique = flag(cx, &inner);
        } else if p == SPARSE {
            dup(SPARSE);
            out.sparse = flag(cx, &inner);
        } else if p == HIDDEN {
            dup(HIDDEN);
            out.hidden = flag(cx, &inner);
        } else if p == TTL || p == EXPIRE_AFTER_SECONDS {
            dup(TTL);
            out.ttl = int_value(cx, TTL, &inner);
            malformed |= out.ttl.is_none();
            if let Some((_, lit)) = &out.ttl {
                out.ttl_tokens = Some(quote::quote!(#p = #lit));
            }
        } else if p == PARTIAL {
            dup(PARTIAL);
            out.partial = str_value(cx, PARTIAL, "status = 'paid', amount >= 10", &inner);
        } else if p == VARIANT {
            dup(VARIANT);
            out.variant = str_value(cx, VARIANT, "purchase", &inner);
        } else if p == WEIGHTS {
            dup(WEIGHTS);
            out.weights = str_value(cx, WEIGHTS, "title:10, body:2", &inner);
        } else if p == DEFAULT_LANGUAGE {
            dup(DEFAULT_LANGUAGE);
            out.default_language = str_value(cx, DEFAULT_LANGUAGE, "english", &inner);
        } else if p == COLLATION {
            dup(COLLATION);
            match parse_collation(cx, &inner) {
                Some(fields) => out.collation = Some((fields, p.to_token_stream())),
                None => malformed = true,
            }
        } else {
            let name = p.to_token_stream().to_string().replace(' ', "");
            let hint = did_you_mean(&name, symbol::names(INDEX_KEYS));
            let expected = symbol::quoted(INDEX_KEYS);
            cx.error_spanned_by(
                p,
                rules::ATTR_UNKNOWN,
                format!("unknown index option `{name}`{hint}: expected one of {expected}"),
            );
            malformed = true;
            keys_attempted = true;
            skip_rest(&inner);
        }
        Ok(())
    });
    if let Err(e) = result {
        cx.syn_error(e);
        malformed = true;
        keys_attempted = true;
    }
    out.malformed = malformed;
    if out.keys.is_none() && !keys_attempted {
        cx.error_spanned_by(
            &meta.path,
            rules::INDEX_KEYS,
            "an index needs its keys: `index(keys = \"merchant, status, -created_at\")`",
        );
    }
    out
}

pub fn parse_capped(cx: &Ctxt, meta: &ParseNestedMeta) -> CappedAttr {
    let mut out = CappedAttr { tokens: meta.path.to_token_stream(), size: None, max: None };
    let example = "`capped(size = 1048576, max = 1000)`";
    if !meta.input.peek(syn::token::Paren) {
        cx.error_spanned_by(
            &meta.path,
            rules::CAPPED_SIZE,
            format!("a capped collection needs its size in bytes: {example}"),
        );
        skip_rest(meta);
        return out;
    }
    // A malformed `size` (or an unknown option, maybe a misspelt `size`) is already reported.
    let mut size_attempted = false;
    // Where `size` and `max` were first given: a repeated one is reported at both places.
    let mut seen: Vec<(Symbol, TokenStream)> = Vec::new();
    let result = meta.parse_nested_meta(|inner| {
        let p = &inner.path;
        let is_size = p == SIZE;
        if is_size || p == MAX {
            let what = if is_size { SIZE } else { MAX };
            match seen.iter().find(|(n, _)| *n == what) {
                Some((_, first)) => duplicate(cx, "capped option", what.as_str(), first, p),
                None => seen.push((what, p.to_token_stream())),
            }
            match inner.value().and_then(|v| v.parse::<LitInt>()) {
                Ok(l) => match l.base10_parse::<u64>() {
                    Ok(n) if n > 0 && n <= i64::MAX as u64 => {
                        if is_size {
                            out.size = Some((n, l));
                        } else {
                            out.max = Some((n, l));
                        }
                    }
                    _ => {
                        let unit = if is_size { "bytes" } else { "documents" };
                        cx.error_spanned_by(
                            &l,
                            rules::CAPPED_SIZE,
                            format!("capped `{what}` is a positive number of {unit}"),
                        );
                        size_attempted |= is_size;
                    }
                },
                Err(_) => {
                    cx.error_spanned_by(p, rules::ATTR_SYNTAX, format!("expected a number: {example}"));
                    size_attempted |= is_size;
                    skip_rest(&inner);
                }
            }
        } else {
            let name = p.to_token_stream().to_string().replace(' ', "");
            let hint = did_you_mean(&name, symbol::names(&[SIZE, MAX]));
            cx.error_spanned_by(
                p,
                rules::ATTR_UNKNOWN,
                format!(
                    "unknown capped option `{name}`{hint}: expected `{SIZE}` (bytes) and optionally `{MAX}` (documents)"
                ),
            );
            size_attempted = true;
            skip_rest(&inner);
        }
        Ok(())
    });
    if let Err(e) = result {
        cx.syn_error(e);
        size_attempted = true;
    }
    if out.size.is_none() && !size_attempted {
        cx.error_spanned_by(
            &meta.path,
            rules::CAPPED_SIZE,
            format!("a capped collection needs its size in bytes: {example}"),
        );
    }
    out
}
