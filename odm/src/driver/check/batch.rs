//! Explaining a batch: which of its documents the validator refuses, and which parts of the validator each of those
//! breaks, asked of the server in time proportional to the batch, never to the collection.
//!
//! The server evaluates the validator and its parts on the documents themselves: one `aggregate` over `$documents` (the batch, as read)
//! with a `$facet` holding one `$match: {$nor: [part]}` per part. No collection is read, so no server needs an index
//! to keep it cheap. A server whose `hello` says it predates `$documents` (wire version below 14, MongoDB 5.1), or
//! that refuses the first such command, has every batch explained by `_id` against the collection
//! (`{_id: {$in: batch}}` beside each part), which those servers serve from the `_id` index.

use crate::base::error::{Error, Result};
use crate::base::validator::Part;
use crate::driver::observe::Op;
use crate::driver::session::Session;
use bson::{doc, Bson, Document, RawDocumentBuf};
use futures_util::TryStreamExt;

/// The most bytes of documents sent in one `$documents` command: half the 16 MiB a command may hold, leaving room
/// for the parts. A larger document is explained by `_id`.
const CHUNK_BYTES: usize = 8 * 1024 * 1024;

/// How the server is asked.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Mode {
    /// Not known yet: `$documents` is tried first.
    Untried,
    /// `$documents` works.
    Documents,
    /// The server refused `$documents`: by `_id` against the collection.
    Ids,
}

/// Asks the server which parts the documents of a batch break.
pub(super) struct Explainer<'a> {
    raw: &'a mongodb::Collection<RawDocumentBuf>,
    session: Option<&'a Session>,
    /// One `$nor` filter per part, in the order of the parts.
    breaks: Vec<Document>,
    mode: Mode,
}

impl<'a> Explainer<'a> {
    pub(super) fn new(
        raw: &'a mongodb::Collection<RawDocumentBuf>,
        session: Option<&'a Session>,
        parts: &[Part],
        by_id: bool,
    ) -> Self {
        let breaks = parts.iter().map(|p| doc! { "$nor": [p.filter.clone()] }).collect();
        Explainer { raw, session, breaks, mode: if by_id { Mode::Ids } else { Mode::Untried } }
    }

    /// For each part, the `_id`s among `docs` that break it, in the order of `docs`.
    pub(super) async fn broken(&mut self, docs: &[RawDocumentBuf]) -> Result<Vec<Vec<Bson>>> {
        let breaks = std::mem::take(&mut self.breaks);
        let out = self.matching(&breaks, docs).await;
        self.breaks = breaks;
        out
    }

    /// The `_id`s among `docs` that `refuses` (`$nor: [validator]`) matches: the documents the whole validator
    /// refuses, evaluated by the server on the documents as read.
    pub(super) async fn refused(&mut self, refuses: &Document, docs: &[RawDocumentBuf]) -> Result<Vec<Bson>> {
        Ok(self.matching(std::slice::from_ref(refuses), docs).await?.pop().unwrap_or_default())
    }

    /// For each of `filters`, the `_id`s among `docs` that it matches.
    async fn matching(&mut self, filters: &[Document], docs: &[RawDocumentBuf]) -> Result<Vec<Vec<Bson>>> {
        let mut out = vec![Vec::new(); filters.len()];
        if docs.is_empty() || filters.is_empty() {
            return Ok(out);
        }
        let mut start = 0;
        while start < docs.len() {
            // A chunk of documents that fits one command; a document too large for one goes alone, by `_id`.
            let mut end = start;
            let mut bytes = 0;
            while end < docs.len() && bytes + docs[end].as_bytes().len() <= CHUNK_BYTES {
                bytes += docs[end].as_bytes().len();
                end += 1;
            }
            if end == start {
                self.by_ids(filters, &[id_of(&docs[start])], &mut out).await?;
                start += 1;
                continue;
            }
            let chunk = &docs[start..end];
            match self.mode {
                Mode::Ids => self.by_ids(filters, &ids(chunk), &mut out).await?,
                Mode::Documents => match self.by_documents(filters, chunk, &mut out).await {
                    Ok(()) => {}
                    // A chunk the server will not take as expressions (a stored key with a `.` or a leading `$`):
                    // that chunk by `_id`, against the collection.
                    Err(Error::Driver(e)) if matches!(*e.kind, mongodb::error::ErrorKind::Command(_)) => {
                        self.by_ids(filters, &ids(chunk), &mut out).await?
                    }
                    Err(e) => return Err(e),
                },
                Mode::Untried if !self.server_has_documents().await? => {
                    self.mode = Mode::Ids;
                    self.by_ids(filters, &ids(chunk), &mut out).await?;
                }
                Mode::Untried => match self.by_documents(filters, chunk, &mut out).await {
                    Ok(()) => self.mode = Mode::Documents,
                    // The server's refusal of the stage is its answer to whether it has it.
                    Err(Error::Driver(e)) if matches!(*e.kind, mongodb::error::ErrorKind::Command(_)) => {
                        self.mode = Mode::Ids;
                        self.by_ids(filters, &ids(chunk), &mut out).await?;
                    }
                    Err(e) => return Err(e),
                },
            }
            start = end;
        }
        Ok(out)
    }

    /// Whether the server says it has `$documents`: wire version 14 (MongoDB 5.1) or later. Asked before trying, so
    /// a server that says it has not is never sent a command it refuses (a refused command ends a transaction).
    async fn server_has_documents(&self) -> Result<bool> {
        // Outside the session: `hello` is no part of a transaction.
        let admin = self.raw.client().database("admin");
        let hello = Op::on_db(&admin, "", "hello").run(admin.run_command(doc! { "hello": 1 })).await?;
        Ok(crate::driver::error::reply_int(&hello, "maxWireVersion").is_some_and(|v| v >= 14))
    }

    async fn by_documents(&self, filters: &[Document], chunk: &[RawDocumentBuf], out: &mut [Vec<Bson>]) -> Result<()> {
        let mut documents = Vec::with_capacity(chunk.len());
        let mut unreadable = Vec::new();
        for d in chunk {
            // A document the client cannot read as BSON values (a string that is not UTF-8, written by another
            // client) cannot be sent back: the server judges it where it is, by `_id`.
            let Ok(doc) = Document::try_from(d.as_ref()) else {
                unreadable.push(id_of(d));
                continue;
            };
            // Each document of `$documents` is an expression: every value goes in `$literal`, so a stored string
            // starting with `$` (`"$$ROOT"`) is that string, not a path the server would evaluate.
            let literal: Document = doc.into_iter().map(|(k, v)| (k, Bson::Document(doc! { "$literal": v }))).collect();
            documents.push(Bson::Document(literal));
        }
        let facets: Document = filters
            .iter()
            .enumerate()
            .map(|(i, breaks)| {
                let stages = vec![doc! { "$match": breaks.clone() }, doc! { "$project": { "_id": 1 } }];
                (i.to_string(), Bson::Array(stages.into_iter().map(Bson::Document).collect()))
            })
            .collect();
        if !unreadable.is_empty() {
            self.by_ids(filters, &unreadable, out).await?;
        }
        if documents.is_empty() {
            return Ok(());
        }
        let pipeline = vec![doc! { "$documents": documents }, doc! { "$facet": facets }];
        let result = self.aggregate(pipeline).await?;
        let Some(facets) = result.first() else { return Ok(()) };
        for (i, broken) in out.iter_mut().enumerate() {
            let rows = facets.get_array(i.to_string()).map(|a| a.as_slice()).unwrap_or_default();
            broken.extend(rows.iter().filter_map(|r| r.as_document()?.get("_id").cloned()));
        }
        Ok(())
    }

    async fn by_ids(&self, filters: &[Document], ids: &[Bson], out: &mut [Vec<Bson>]) -> Result<()> {
        for (breaks, broken) in filters.iter().zip(out.iter_mut()) {
            let filter = doc! { "$and": [{ "_id": { "$in": ids } }, breaks.clone()] };
            let op = Op::on(self.raw, "find").in_session(self.session).values(|| doc! { "filter": &filter });
            let find = self.raw.find(filter).projection(doc! { "_id": 1 });
            let found: Vec<RawDocumentBuf> = op
                .run(async {
                    Ok::<_, Error>(match self.session {
                        Some(s) => {
                            // The cursor is opened with the session locked, then read batch by batch, each locking it
                            // again.
                            let cursor = find.session(&mut *s.lock().await).await?;
                            crate::driver::session::rows(cursor, s.clone()).try_collect().await?
                        }
                        None => find.await?.try_collect().await?,
                    })
                })
                .await?;
            broken.extend(found.iter().map(id_of));
        }
        Ok(())
    }

    /// Runs a database-level pipeline (one starting with `$documents`), in the collection's session when it has one.
    async fn aggregate(&self, pipeline: Vec<Document>) -> Result<Vec<Document>> {
        let db = self.raw.client().database(&self.raw.namespace().db);
        let op = Op::on_db(&db, "", "aggregate").in_session(self.session).values(|| doc! { "pipeline": &pipeline });
        let aggregate = db.aggregate(pipeline);
        op.run(async {
            Ok(match self.session {
                Some(s) => {
                    let mut locked = s.lock().await;
                    let mut cursor = aggregate.session(&mut *locked).await?;
                    cursor.stream(&mut locked).try_collect().await?
                }
                None => aggregate.await?.try_collect().await?,
            })
        })
        .await
    }
}

/// The `_id` of a stored document (`null` when it has none, which a collection never holds).
pub(super) fn id_of(doc: &RawDocumentBuf) -> Bson {
    doc.get("_id").ok().flatten().and_then(|v| Bson::try_from(v).ok()).unwrap_or(Bson::Null)
}

fn ids(docs: &[RawDocumentBuf]) -> Vec<Bson> {
    docs.iter().map(id_of).collect()
}
