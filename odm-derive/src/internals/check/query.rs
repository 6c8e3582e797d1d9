//! Access patterns → ESR (`query-esr`): every declared query is served by an index whose keys run Equality →
//! Sort → Range, either one the model declares or one the derive builds for it.

use crate::internals::ast::{Container, Data};
use crate::internals::attr::query::QueryAttr;
use crate::internals::ctxt::Ctxt;
use crate::internals::index_keys::DEFAULT_MAX_INDEXES;
use crate::internals::resolve::{Esr, Resolved};
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
                check_targeted(cx, q, esr, resolved);
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

/// On a sharded model a declared query holds the whole shard key (or `_id`) by equality, or the router sends it to
/// every shard (`shard-key-query`).
fn check_targeted(cx: &Ctxt, q: &QueryAttr, esr: &Esr, resolved: &Resolved) {
    let shard = resolved.shard_fields();
    if shard.is_empty() || esr.eq.iter().any(|(_, f)| f.key == "_id") {
        return;
    }
    let missing: Vec<&str> = shard
        .iter()
        .filter(|(s, _)| !esr.eq.iter().any(|(_, f)| std::ptr::eq(*f, *s)))
        .map(|(s, _)| s.rust_name.as_str())
        .collect();
    if missing.is_empty() {
        return;
    }
    let listed = missing.iter().map(|m| format!("`{m}`")).collect::<Vec<_>>().join(", ");
    let msg = format!(
        "this query does not hold the shard key field(s) {listed} by equality, so the router would send it to every \
         shard (scatter-gather); add {listed} to `eq`, or query by `_id`"
    );
    match &q.eq {
        Some(lit) => cx.error_spanned_by(lit, rules::SHARD_KEY_QUERY, msg),
        None => cx.error_spanned_by(&q.tokens, rules::SHARD_KEY_QUERY, msg),
    }
}
