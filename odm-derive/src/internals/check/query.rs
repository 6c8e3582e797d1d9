//! Access patterns → ESR (`query-esr`): every declared query is served by an index whose keys run Equality →
//! Sort → Range, either one the model declares or one the derive builds for it.

use crate::internals::ast::{Container, Data};
use crate::internals::ctxt::Ctxt;
use crate::internals::index_keys::DEFAULT_MAX_INDEXES;
use crate::internals::resolve::Resolved;
use crate::internals::rules;
use crate::internals::ty;

pub fn check(cx: &Ctxt, cont: &Container, resolved: &Resolved) {
    let Data::Struct(_) = &cont.data else {
        for q in &cont.attrs.queries {
            cx.error_spanned_by(&q.tokens, rules::MODEL_ONLY, "queries are declared on `#[derive(Model)]` structs");
        }
        return;
    };
    if cont.derive == crate::internals::ast::Derive::Embedded {
        for q in &cont.attrs.queries {
            cx.error_spanned_by(
                &q.tokens,
                rules::MODEL_ONLY,
                "queries belong on a `#[derive(Model)]` collection model",
            );
        }
        return;
    }
    for resolved_query in &resolved.queries {
        let q = resolved_query.attr;
        match &resolved_query.esr {
            Err(e) => e.error.report(cx, e.lit, e.lang),
            Ok(esr) => {
                // A low-cardinality boolean first wastes the most selective position.
                if let Some((label, f)) = esr.eq.first() {
                    let is_bool = quote::ToTokens::to_token_stream(ty::unwrap_option(f.ty)).to_string() == "bool";
                    if is_bool && esr.eq.len() > 1 {
                        if let Some(lit) = &q.eq {
                            let rest: Vec<&str> = esr.eq[1..].iter().map(|(l, _)| l.as_str()).collect();
                            cx.error_spanned_by(
                                lit, rules::QUERY_ESR,
                                format!(
                                    "`{label}` is a bool, a low-cardinality field that only halves the collection; list the \
                                     more selective equality fields first: `eq = \"{}, {label}\"`",
                                    rest.join(", ")
                                ),
                            );
                        }
                    }
                }
            }
        }
    }
    let limit = cont.attrs.max_indexes.as_ref().map_or(DEFAULT_MAX_INDEXES, |m| m.value);
    let declared = cont.attrs.indexes.len();
    for (i, generated) in resolved.query_indexes.iter().enumerate() {
        let (q, keys) = (generated.query, &generated.keys);
        if declared + i >= limit {
            let at = q.eq.as_ref().or(q.sort.as_ref()).or(q.range.as_ref());
            let msg = format!(
                "no declared index serves this query, and its ESR index `{keys}` would exceed the ceiling of {limit} \
                 indexes; reorder an existing index to serve it, or raise `#[odm(max_indexes = N)]`"
            );
            match at {
                Some(lit) => cx.error_spanned_by(lit, rules::INDEX_CEILING, msg),
                None => cx.error_spanned_by(&q.tokens, rules::INDEX_CEILING, msg),
            }
        }
    }
}
