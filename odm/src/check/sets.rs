//! What the validator cannot see in a set of documents: one element stored twice in two key orders. The server's
//! `uniqueItems` compares documents key by key in order, so `{v: "v1", w: 2}` and `{w: 2, v: "v1"}` pass it as two
//! elements, while odm reads them as one (rule [`array-unique`](crate::rules#array-unique)). The checker asks the
//! server for the documents whose set holds such a pair, one query per set of documents the model declares.

use super::{record, Check, Finding, Tally};
use crate::collection::Collection;
use crate::error::Result;
use crate::model::Model;
use crate::observe::Op;
use crate::set_element::{document_sets, reordered_duplicate};
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
                super::stream(raw, session, filter.clone(), Some(doc! { "_id": 1 })).await?.try_collect().await?;
            if rows.is_empty() {
                continue;
            }
            let ids: Vec<Bson> = rows.iter().map(super::batch::id_of).collect();
            let passing = doc! { "$and": [validator.clone(), filter] };
            let count = Op::on(raw, "count");
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
