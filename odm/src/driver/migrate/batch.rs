//! One pass's work: reading older documents in batches (reopening a dropped cursor) and rewriting each batch at
//! the current version with one guarded write command.

use crate::base::codec::{decode, encode};
use crate::base::error::{Error, Result, MAX_DOCUMENT_SIZE};
use crate::base::migrate::options::Guard;
use crate::base::migrate::report::{MigrationFailure, MigrationReport};
use crate::base::model::model_name;
use crate::base::model::Model;
use crate::driver::collection::check_statement;
use crate::driver::collection::Collection;
use crate::driver::error::{reply_int, write_error};
use crate::driver::observe::{raw_value, Op};
use crate::driver::session::Session;
use crate::driver::to_driver::write_concern_document;
use bson::{cstr, rawdoc, Bson, RawArrayBuf, RawDocument, RawDocumentBuf};
use futures_util::stream::BoxStream;
use futures_util::{StreamExt, TryStreamExt};
use mongodb::action::Action;
use std::future::IntoFuture;

/// `older` with a condition on `_id` beside it (top-level fields, not `$and`: servers that plan only top-level
/// fields still use the `_id` index).
pub(super) fn with_id(older: &bson::Document, condition: bson::Document) -> bson::Document {
    let mut filter = bson::doc! { "_id": condition };
    filter.extend(older.clone());
    filter
}

/// Whether `doc` holds a key or a string (at any depth) starting with `$`, which an expression would not take as it
/// is.
fn has_dollar(doc: &RawDocument) -> bool {
    fn value(v: bson::RawBsonRef<'_>) -> bool {
        match v {
            bson::RawBsonRef::String(s) | bson::RawBsonRef::Symbol(s) => s.starts_with('$'),
            bson::RawBsonRef::Document(d) => has_dollar(d),
            bson::RawBsonRef::Array(a) => a.into_iter().any(|v| v.map_or(true, value)),
            _ => false,
        }
    }
    doc.into_iter().any(|e| e.map_or(true, |(k, v)| k.as_str().starts_with('$') || value(v)))
}

/// The first pass's cursor, reopened after the last `_id` read when the server drops it (e.g. after long pauses).
pub(super) struct Reader<'r, 'c, M: Model> {
    pub(super) cursor: BoxStream<'static, Result<RawDocumentBuf>>,
    pub(super) last: Option<Bson>,
    pub(super) older: &'r bson::Document,
    pub(super) run: &'r Run<'c, M>,
}

impl<M: Model> Reader<'_, '_, M> {
    /// Up to `n` more documents (none at the end).
    pub(super) async fn next_batch(&mut self, n: usize) -> Result<Vec<RawDocumentBuf>> {
        let mut batch = Vec::with_capacity(n);
        while batch.len() < n {
            match self.cursor.try_next().await {
                Ok(Some(raw)) => {
                    self.last = raw.get("_id").ok().flatten().and_then(|v| Bson::try_from(v).ok());
                    batch.push(raw);
                }
                Ok(None) => break,
                Err(e) if e.code() == Some(CURSOR_NOT_FOUND) => {
                    self.cursor = self.run.open(self.older, self.last.as_ref()).await?;
                }
                Err(e) => return Err(e),
            }
        }
        Ok(batch)
    }
}

/// The server's code for a cursor it no longer has (`CursorNotFound`).
const CURSOR_NOT_FOUND: i32 = 43;

/// Reads and writes go to the primary: a lagging secondary would show documents already migrated as older, and
/// their guards would miss.
fn primary() -> mongodb::options::SelectionCriteria {
    mongodb::options::SelectionCriteria::ReadPreference(mongodb::options::ReadPreference::Primary)
}

/// What one batch left to do.
pub(super) struct Outcome {
    /// Documents dealt with: migrated or failed.
    pub(super) done: u64,
    /// The `_id`s of the statements (not refused) of commands in which some guard missed: read again in a later pass.
    pub(super) recheck: Vec<Bson>,
    /// How many statements of those commands neither migrated their document nor were refused: guards that missed,
    /// or documents deleted meanwhile.
    pub(super) unresolved: u64,
}

/// The state of one run: the collection, the command's fixed parts.
pub(super) struct Run<'c, M: Model> {
    raw: &'c mongodb::Collection<RawDocumentBuf>,
    db: mongodb::Database,
    /// The guarded replacement, the same for every statement (the documents travel in `c`).
    pipeline: RawArrayBuf,
    write_concern: Option<RawDocumentBuf>,
    guard: Guard,
    /// The stored key of the version.
    version_key: &'static str,
    /// The collection's session: every read and write of the run goes through it.
    session: Option<Session>,
    /// The cursor's `batchSize`: the server sends a batch's documents per reply, not 16 MiB whatever the batch.
    batch_size: u32,
    _model: std::marker::PhantomData<fn() -> M>,
}

impl<'c, M: Model> Run<'c, M> {
    pub(super) fn new(coll: &'c Collection<M>, guard: Guard, version_key: &'static str, batch: usize) -> Result<Self> {
        let raw = coll.raw();
        let db = raw.client().database(&raw.namespace().db);
        let mut pipeline = RawArrayBuf::new();
        pipeline.push(rawdoc! {
            "$replaceWith": { "$cond": [ { "$eq": ["$$ROOT", "$$o"] }, "$$n", "$$ROOT" ] }
        });
        let write_concern = write_concern_document::<M>()?;
        let session = coll.session().cloned();
        let batch_size = u32::try_from(batch).unwrap_or(u32::MAX);
        Ok(Run {
            raw,
            db,
            pipeline,
            write_concern,
            guard,
            version_key,
            session,
            batch_size,
            _model: std::marker::PhantomData,
        })
    }

    /// A cursor over the older documents after `after`, in `_id` order (the `_id` index, never an in-memory sort).
    pub(super) async fn open(
        &self,
        older: &bson::Document,
        after: Option<&Bson>,
    ) -> Result<BoxStream<'static, Result<RawDocumentBuf>>> {
        let filter = match after {
            Some(id) => with_id(older, bson::doc! { "$gt": id.clone() }),
            None => older.clone(),
        };
        self.open_filter(filter).await
    }

    pub(super) async fn open_filter(
        &self,
        filter: bson::Document,
    ) -> Result<BoxStream<'static, Result<RawDocumentBuf>>> {
        let op = Op::on(self.raw, "find")
            .in_session(self.session.as_ref())
            .read_preference(&primary())
            .values(|| bson::doc! { "filter": &filter, "sort": { "_id": 1 } });
        let find = self
            .raw
            .find(filter)
            .sort(bson::doc! { "_id": 1 })
            .hint(mongodb::options::Hint::Keys(bson::doc! { "_id": 1 }))
            .batch_size(self.batch_size)
            .selection_criteria(primary());
        Ok(match &self.session {
            Some(s) => {
                let cursor = op.run(find.session(&mut *s.lock().await).into_future()).await?;
                crate::driver::session::rows(cursor, s.clone())
            }
            None => op.run(find).await?.map_err(Error::from).boxed(),
        })
    }

    /// The run's session, locked for one operation (`None` without one).
    async fn session_lock(&self) -> Option<tokio::sync::OwnedMutexGuard<mongodb::ClientSession>> {
        match &self.session {
            Some(s) => Some(s.lock().await),
            None => None,
        }
    }

    /// The number of documents matching `filter`, in the run's session if any.
    pub(super) async fn count(&self, filter: bson::Document) -> Result<u64> {
        let op = Op::on(self.raw, "aggregate")
            .in_session(self.session.as_ref())
            .read_preference(&primary())
            .values(|| bson::doc! { "query": &filter });
        let count = self.raw.count_documents(filter).selection_criteria(primary());
        Ok(match &self.session {
            Some(s) => op.run(count.session(&mut *s.lock().await).into_future()).await?,
            None => op.run(count).await?,
        })
    }

    /// Migrates and writes one batch of documents as read.
    pub(super) async fn batch(
        &self,
        batch: &[RawDocumentBuf],
        fail_fast: bool,
        report: &mut MigrationReport,
    ) -> Result<Outcome> {
        let mut outcome = Outcome { done: 0, recheck: Vec::new(), unresolved: 0 };
        let mut statements: Vec<(Bson, RawDocumentBuf)> = Vec::with_capacity(batch.len());
        for original in batch {
            let id = original.get("_id").ok().flatten().and_then(|v| Bson::try_from(v).ok()).unwrap_or(Bson::Null);
            match self.statement(original) {
                Ok(statement) => statements.push((id, statement)),
                Err(error) if fail_fast => return Err(error),
                Err(error) => {
                    report.failed.push(MigrationFailure { id, error });
                    outcome.done += 1;
                }
            }
        }
        // One command per 16 MiB of statements (a command is one BSON document on the wire).
        let mut start = 0;
        while start < statements.len() {
            let mut end = start + 1;
            let mut size = statements[start].1.as_bytes().len();
            while end < statements.len() && size + statements[end].1.as_bytes().len() <= MAX_DOCUMENT_SIZE {
                size += statements[end].1.as_bytes().len();
                end += 1;
            }
            self.send(&statements[start..end], fail_fast, report, &mut outcome).await?;
            start = end;
        }
        Ok(outcome)
    }

    /// The guarded replacement of `original` by its migrated value.
    fn statement(&self, original: &RawDocumentBuf) -> Result<RawDocumentBuf> {
        let value: M = decode(original)?;
        let migrated = encode(&value)?;
        let id = original.get("_id").ok().flatten().ok_or_else(|| Error::MissingId { model: model_name::<M>() })?;
        let mut q = RawDocumentBuf::new();
        q.append(cstr!("_id"), id);
        let mut statement = RawDocumentBuf::new();
        if self.guard == Guard::Version {
            // A plain replacement of the document as long as it is at the version it was read at.
            let key = <&bson::raw::CStr>::try_from(self.version_key).map_err(Error::serialize::<M>)?;
            match original.get(self.version_key).ok().flatten() {
                Some(version) => q.append(key, version),
                None => q.append(key, rawdoc! { "$exists": false }),
            }
            statement.append(cstr!("q"), &q);
            statement.append(cstr!("u"), &migrated);
        } else if has_dollar(original) || has_dollar(&migrated) {
            statement.append(cstr!("q"), &q);
            // Some servers evaluate `c` as expressions: a `$` string or key would be read as a path or an operator.
            // `$literal` means the value itself everywhere.
            let literal = |doc: &RawDocument| {
                let mut l = RawDocumentBuf::new();
                l.append(cstr!("$literal"), doc);
                l
            };
            let cond = rawdoc! {
                "$cond": [ { "$eq": ["$$ROOT", literal(original)] }, literal(&migrated), "$$ROOT" ]
            };
            let mut pipeline = RawArrayBuf::new();
            pipeline.push(rawdoc! { "$replaceWith": cond });
            statement.append(cstr!("u"), pipeline);
        } else {
            statement.append(cstr!("q"), &q);
            let mut c = RawDocumentBuf::new();
            c.append(cstr!("o"), original as &RawDocument);
            c.append(cstr!("n"), &migrated);
            statement.append(cstr!("u"), &self.pipeline);
            statement.append(cstr!("c"), &c);
        }
        check_statement::<M>([statement.as_bytes().len()])?;
        Ok(statement)
    }

    /// Sends one bulk `update` command and accounts for its statements.
    async fn send(
        &self,
        statements: &[(Bson, RawDocumentBuf)],
        fail_fast: bool,
        report: &mut MigrationReport,
        outcome: &mut Outcome,
    ) -> Result<()> {
        let mut updates = RawArrayBuf::new();
        for (_, statement) in statements {
            updates.push(statement);
        }
        let mut command = RawDocumentBuf::new();
        command.append(cstr!("update"), self.raw.name());
        command.append(cstr!("updates"), updates);
        command.append(cstr!("ordered"), false);
        if let Some(wc) = &self.write_concern {
            command.append(cstr!("writeConcern"), wc);
        }
        let op = Op::on(self.raw, "update").sent_raw(&command).values(|| raw_value(&command));
        let reply = op
            .run(
                self.db
                    .run_raw_command(command)
                    .optional(self.session_lock().await.as_deref_mut(), |a, s| a.session(s)),
            )
            .await
            .map_err(|e| Error::from_driver(e, model_name::<M>(), M::type_meta()))?;
        op.write_counts(&reply);
        report.batches += 1;
        let modified = reply_int(&reply, "nModified").unwrap_or(0);
        let mut refused = Vec::new();
        for we in reply.get_array("writeErrors").map(|a| a.as_slice()).unwrap_or_default() {
            let Some(we) = we.as_document() else { continue };
            let index = reply_int(we, "index").unwrap_or(-1);
            let Some((id, _)) = usize::try_from(index).ok().and_then(|i| statements.get(i)) else { continue };
            let error = write_error::<M>(we);
            if fail_fast {
                return Err(error);
            }
            report.failed.push(MigrationFailure { id: id.clone(), error });
            refused.push(id);
        }
        if let Ok(wce) = reply.get_document("writeConcernError") {
            let code = reply_int(wce, "code").unwrap_or(0) as i32;
            let message = wce.get_str("errmsg").unwrap_or_default().to_owned();
            return Err(Error::Write { model: model_name::<M>(), code, message });
        }
        let modified = u64::try_from(modified).unwrap_or(0);
        report.migrated += modified;
        outcome.done += modified + refused.len() as u64;
        let missed = (statements.len() as u64).saturating_sub(modified + refused.len() as u64);
        if missed > 0 {
            // Some guard missed (or the document is gone): which ones is not in the reply, so every statement of the
            // command that was not refused is read again; those migrated here are current and no longer selected.
            outcome.unresolved += missed;
            outcome.recheck.extend(statements.iter().map(|(id, _)| id).filter(|id| !refused.contains(id)).cloned());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dollar_strings_and_keys_are_found_at_any_depth() {
        let raw = |d: bson::Document| RawDocumentBuf::try_from(&d).unwrap();
        assert!(!has_dollar(&raw(bson::doc! { "a": "x$", "b": { "c": [1, "y", { "d": "z" }] } })));
        assert!(has_dollar(&raw(bson::doc! { "a": "$x" })));
        assert!(has_dollar(&raw(bson::doc! { "b": { "c": [1, { "d": "$$ROOT" }] } })));
        assert!(has_dollar(&raw(bson::doc! { "m": { "$k": 1 } })));
    }

    #[test]
    fn id_conditions_stay_top_level_fields() {
        let older = bson::doc! { "_v": { "$ne": 3_i64 } };
        assert_eq!(
            with_id(&older, bson::doc! { "$gt": 7 }),
            bson::doc! { "_id": { "$gt": 7 }, "_v": { "$ne": 3_i64 } }
        );
    }
}
