//! Declared access patterns resolved to Equality → Sort → Range keys, and the queries no declared index serves
//! (the derive builds an ESR index for each).

use super::field::FieldFacts;
use super::path::resolve_path;
use super::Index;
use crate::internals::ast::Field;
use crate::internals::attr::query::QueryAttr;
use crate::internals::index_keys::{key_label, KeyKind};
use crate::internals::lists::{entries, Lang, PartError, EQ, RANGE, SORT};
use crate::internals::rules;
use crate::internals::symbol;

/// A declared query, resolved.
pub struct Query<'a> {
    /// The query as written, where its rules point.
    pub attr: &'a QueryAttr,
    /// Its fields in ESR order, or the first error in them.
    pub esr: Result<Esr<'a>, QueryError<'a>>,
}

/// Why a query's fields do not resolve: the error, with the literal it is about and that literal's language.
pub struct QueryError<'a> {
    /// What is wrong, and where in the literal.
    pub error: PartError,
    /// The literal (`eq`, `sort` or `range`) holding the fault.
    pub lit: &'a syn::LitStr,
    /// That literal's language, for the message.
    pub lang: &'static Lang,
}

/// A query's fields, resolved: labels (`a` or `a.b`) with sort directions.
pub struct Esr<'a> {
    pub eq: Vec<(String, &'a Field<'a>)>,
    pub sort: Vec<(String, bool)>,
    pub range: Vec<String>,
}

impl Esr<'_> {
    /// The `keys` string of the ESR index for this query.
    pub fn keys(&self) -> String {
        let mut keys: Vec<String> = self.eq.iter().map(|(l, _)| l.clone()).collect();
        keys.extend(self.sort.iter().map(|(l, asc)| if *asc { l.clone() } else { format!("-{l}") }));
        keys.extend(self.range.iter().cloned());
        keys.join(", ")
    }

    fn labels(&self) -> Vec<&str> {
        let mut v: Vec<&str> = self.eq.iter().map(|(l, _)| l.as_str()).collect();
        v.extend(self.sort.iter().map(|(l, _)| l.as_str()));
        v.extend(self.range.iter().map(String::as_str));
        v
    }
}

/// A query part's literal and its language.
fn parts(q: &QueryAttr) -> [(Option<&syn::LitStr>, &'static Lang); 3] {
    [(q.eq.as_ref(), &EQ), (q.sort.as_ref(), &SORT), (q.range.as_ref(), &RANGE)]
}

/// A query's fields, resolved.
pub fn resolve_query<'a>(fields: &'a [Field<'a>], facts: &FieldFacts, q: &'a QueryAttr) -> Query<'a> {
    Query { attr: q, esr: resolve_esr(fields, facts, q) }
}

fn resolve_esr<'a>(fields: &'a [Field<'a>], facts: &FieldFacts, q: &'a QueryAttr) -> Result<Esr<'a>, QueryError<'a>> {
    let mut esr = Esr { eq: Vec::new(), sort: Vec::new(), range: Vec::new() };
    for (lit, lang) in parts(q) {
        let Some(lit) = lit else { continue };
        let text = lit.value();
        for entry in entries(&text).into_iter().filter(|e| !e.is_empty()) {
            let fail = |error: PartError| QueryError { error, lit, lang };
            let (path, asc) = match entry.strip_prefix('-').filter(|_| lang.attr == SORT.attr) {
                Some(p) => (p.trim(), false),
                None => (entry, true),
            };
            let (field, _, _) = resolve_path(fields, facts, path).map_err(|e| fail(e.within(&text, path)))?;
            if esr.labels().contains(&path) {
                let msg = format!("`{path}` appears twice in one query; a field is either equality, sort or range");
                return Err(fail(PartError::quoting(rules::QUERY_FIELDS, &text, path, msg)));
            }
            match lang.attr {
                symbol::EQ => {
                    let f = field.ok_or_else(|| {
                        fail(PartError::quoting(rules::QUERY_FIELDS, &text, path, "`$**` is not a field"))
                    })?;
                    esr.eq.push((path.to_owned(), f));
                }
                symbol::SORT => esr.sort.push((path.to_owned(), asc)),
                _ => esr.range.push(path.to_owned()),
            }
        }
    }
    Ok(esr)
}

/// True when the index keys serve the query: equality fields first (any order), then the sort fields in order
/// with all directions kept or all reversed, then the range fields.
fn serves(esr: &Esr, index_keys: &[(String, KeyKind)]) -> bool {
    let n = esr.eq.len() + esr.sort.len() + esr.range.len();
    if index_keys.len() < n || index_keys.iter().any(|(_, k)| !matches!(k, KeyKind::Asc | KeyKind::Desc)) {
        return false;
    }
    let (eq, rest) = index_keys.split_at(esr.eq.len());
    if !esr.eq.iter().all(|(l, _)| eq.iter().any(|(k, _)| k == l)) {
        return false;
    }
    let (sort, rest) = rest.split_at(esr.sort.len());
    let same = sort.iter().zip(&esr.sort).all(|((k, kind), (l, asc))| k == l && (*kind == KeyKind::Asc) == *asc);
    let reversed = sort.iter().zip(&esr.sort).all(|((k, kind), (l, asc))| k == l && (*kind == KeyKind::Asc) != *asc);
    if !(same || reversed) {
        return false;
    }
    let range = &rest[..esr.range.len()];
    esr.range.iter().all(|l| range.iter().any(|(k, _)| k == l))
}

/// The queries that need an index of their own (no index among `declared` serves them), with their ESR keys: the
/// index of the query in `queries`, and the `keys` string of its index.
pub fn unserved(declared: &[Index], queries: &[Query]) -> Vec<(usize, String)> {
    let declared: Vec<Vec<(String, KeyKind)>> = declared
        .iter()
        .filter(|i| i.attr.partial.is_none() && i.attr.sparse.is_none() && i.attr.collation.is_none())
        .filter_map(|i| i.keys.as_ref()?.as_ref().ok())
        .map(|keys| keys.iter().map(|k| (key_label(k), k.kind)).collect())
        .collect();
    let mut out: Vec<(usize, String)> = Vec::new();
    for (i, q) in queries.iter().enumerate() {
        let Ok(esr) = &q.esr else { continue };
        let keys = esr.keys();
        if keys.is_empty() || declared.iter().any(|d| serves(esr, d)) || out.iter().any(|(_, k)| *k == keys) {
            continue;
        }
        out.push((i, keys));
    }
    out
}
