//! Access patterns: `#[odm(query(eq = "merchant, status", sort = "-created_at", range = "amount"))]`.
//! Each declared query is served by a declared index in Equality → Sort → Range order, or gets its own ESR index.

use crate::internals::ctxt::Ctxt;
use crate::internals::rules;
use crate::internals::symbol::{EQ, RANGE, SORT};
use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::LitStr;

/// One declared query, as written.
pub struct QueryAttr {
    pub tokens: TokenStream,
    pub eq: Option<LitStr>,
    pub sort: Option<LitStr>,
    pub range: Option<LitStr>,
}

pub fn parse_query(cx: &Ctxt, meta: &ParseNestedMeta) -> QueryAttr {
    let mut out = QueryAttr { tokens: meta.path.to_token_stream(), eq: None, sort: None, range: None };
    let result = meta.parse_nested_meta(|inner| {
        let p = &inner.path;
        let slot = if p == EQ {
            &mut out.eq
        } else if p == SORT {
            &mut out.sort
        } else if p == RANGE {
            &mut out.range
        } else {
            cx.error_spanned_by(
                p,
                rules::ATTR_UNKNOWN,
                format!("unknown query part: expected `{EQ}`, `{SORT}` and `{RANGE}` (field lists)"),
            );
            let _ = inner.value().and_then(|v| v.parse::<syn::Lit>());
            return Ok(());
        };
        if slot.is_some() {
            cx.error_spanned_by(p, rules::ATTR_DUPLICATE, "duplicate query part: list all its fields in one string");
        }
        match inner.value().and_then(|v| v.parse::<LitStr>()) {
            Ok(l) => *slot = Some(l),
            Err(_) => cx.error_spanned_by(p, rules::ATTR_SYNTAX, "expected a field list: `eq = \"merchant, status\"`"),
        }
        Ok(())
    });
    if let Err(e) = result {
        cx.syn_error(e);
    }
    if out.eq.is_none() && out.sort.is_none() && out.range.is_none() {
        cx.error_spanned_by(
            &meta.path,
            rules::QUERY_FIELDS,
            "a query names its fields: `query(eq = \"a, b\", sort = \"-c\", range = \"d\")`",
        );
    }
    out
}
