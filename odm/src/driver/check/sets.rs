//! What the validator cannot see in a set of documents: one element stored twice in two key orders. The server's
//! `uniqueItems` compares documents key by key in order, so `{v: "v1", w: 2}` and `{w: 2, v: "v1"}` pass it as two
//! elements, while odm reads them as one (rule [`array-unique`](crate::rules#array-unique)). The checker asks the
//! server for the documents whose set holds such a pair, one query per set of documents the model declares.

use super::{record, Check, Finding, Tally};
use crate::base::error::Result;
use crate::base::kind::BsonKind;
use crate::base::meta::TypeMeta;
use crate::base::model::Model;
use crate::base::set_element::embedded;
use crate::driver::collection::Collection;
use crate::driver::observe::Op;
use bson::{doc, Bson, Document, RawDocumentBuf};
use futures_util::TryStreamExt;
use std::future::IntoFuture;

impl<M: Model> Collection<M> {
    /// For each set of documents of the model: its stored path, the `_id`s of the documents holding one element in
    /// two key orders, and how many of them pass `validator` (documents the validator refuses are already counted as
    /// failing).
    pub(super) async fn reordered_duplicates(&self, validator: &Document) -> Result<Vec<(String, Vec<Bson>, u64)>> {
        let Some(meta) = M::type_meta() else { return Ok(Vec::new()) };
        let raw = self.raw();
        let mut out = Vec::new();
        for (path, element) in document_sets(meta) {
            let filter = doc! { "$expr": reordered_duplicate(&path, element) };
            let session = self.session();
            let rows: Vec<RawDocumentBuf> =
                super::stream(raw, session, filter.clone(), Some(doc! { "_id": 1 }), None).await?.try_collect().await?;
            if rows.is_empty() {
                continue;
            }
            let ids: Vec<Bson> = rows.iter().map(super::batch::id_of).collect();
            let passing = doc! { "$and": [validator.clone(), filter] };
            let count = Op::on(raw, "aggregate");
            let passing = match session {
                Some(s) => {
                    let mut session = s.lock().await;
                    count.run(raw.count_documents(passing).session(&mut *session).into_future()).await?
                }
                None => count.run(raw.count_documents(passing).into_future()).await?,
            };
            out.push((path, ids, passing));
        }
        Ok(out)
    }
}

impl Tally<'_> {
    /// Counts the documents whose set at `stored` (Rust path `path`) holds one element in two key orders under the
    /// set's finding, and those of them the validator passes as failing.
    pub(super) fn reordered(&mut self, stored: &str, path: String, ids: Vec<Bson>, passing: u64) {
        self.report.failing += passing;
        let found = self.findings.iter().position(|f| f.check == Check::Bounds && f.stored_path == stored);
        let i = match found.filter(|&i| self.findings[i].rule == UNIQUE) {
            Some(i) => i,
            None => {
                let f = Finding {
                    check: Check::Bounds,
                    rule: UNIQUE,
                    stored_path: stored.to_owned(),
                    path,
                    ..self.other.clone()
                };
                self.findings.push(Finding { count: 0, sample_ids: Vec::new(), ..f });
                self.findings.len() - 1
            }
        };
        record(&mut self.findings[i], ids, self.samples);
    }
}

/// The rule a set's duplicates break.
const UNIQUE: &str = "array-unique";

/// The aggregation expression rewriting the element bound to `$$var` with its declared keys in declaration order
/// (embedded documents likewise), so that two elements equal as sets of keys become equal documents; `$$var` itself
/// for a type without a field table. A key the element leaves out stays out.
pub(crate) fn normalized(var: &str, meta: Option<&'static TypeMeta>) -> Bson {
    match meta {
        Some(meta) if !meta.fields.is_empty() && meta.variants.is_empty() => rebuilt(&format!("$${var}"), meta),
        _ => Bson::String(format!("$${var}")),
    }
}

/// `{key: at.key, …}` over `meta`'s fields, recursing into embedded documents (kept as they are when not documents).
fn rebuilt(at: &str, meta: &'static TypeMeta) -> Bson {
    let mut out = Document::new();
    for f in meta.fields {
        let path = format!("{at}.{}", f.key);
        let value = match embedded(f) {
            Some(inner) if inner.variants.is_empty() && !inner.fields.is_empty() => Bson::Document(doc! {
                "$cond": [{ "$eq": [{ "$type": &path }, "object"] }, rebuilt(&path, inner), &path]
            }),
            _ => Bson::String(path),
        };
        out.insert(f.key, value);
    }
    Bson::Document(out)
}

/// The stored paths of the model's sets of documents (`unique_items` arrays whose elements have a field table),
/// reached through embedded documents but not through arrays, each with the elements' table.
pub(crate) fn document_sets(meta: &'static TypeMeta) -> Vec<(String, &'static TypeMeta)> {
    let mut out = Vec::new();
    sets_in(meta, "", &mut out);
    out
}

fn sets_in(meta: &'static TypeMeta, prefix: &str, out: &mut Vec<(String, &'static TypeMeta)>) {
    let tables = std::iter::once(meta).chain(meta.variants);
    for table in tables {
        for f in table.fields {
            let path = if prefix.is_empty() { f.key.to_owned() } else { format!("{prefix}.{}", f.key) };
            let element = (f.ty.item == Some(BsonKind::Object)).then(|| (f.ty.meta)()).flatten();
            match (f.unique_items, element, embedded(f)) {
                (true, Some(element), _) if !out.iter().any(|(p, _)| *p == path) => out.push((path, element)),
                (_, _, Some(inner)) if f.ty.kind == BsonKind::Object => sets_in(inner, &path, out),
                _ => {}
            }
        }
    }
}

/// The `$expr` true for a document whose set at `path` holds two elements equal as sets of keys but none equal key by
/// key in order (which `uniqueItems` refuses, and the validator's part for the set reports).
pub(crate) fn reordered_duplicate(path: &str, element: &'static TypeMeta) -> Document {
    let array = format!("${path}");
    let input = doc! { "$cond": [{ "$isArray": [&array] }, &array, []] };
    let distinct = |of: Bson| doc! { "$size": { "$setUnion": [of] } };
    let norm = doc! { "$map": { "input": input.clone(), "as": "el", "in": normalized("el", Some(element)) } };
    doc! {
        "$and": [
            { "$eq": [{ "$size": input.clone() }, distinct(Bson::Document(input.clone()))] },
            { "$lt": [distinct(Bson::Document(norm)), { "$size": input }] },
        ]
    }
}
