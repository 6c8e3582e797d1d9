//! Batch migration: one call brings every document of a versioned model's collection to the current version.
//!
//! Typed reads migrate older documents as they read them (see [`crate::version`]); [`Collection::migrate`] stores
//! the migrated values, so the model can later drop its older shapes. It reads the documents not at the current
//! version in `_id` order, a batch at a time, migrates each through the model's [`Upgrade`](crate::Upgrade) steps
//! (the same path as a typed read), and writes each batch back with one bulk `update` command.
//!
//! - **Safe against concurrent writes.** Every replacement is guarded by the whole document as it was read: it
//!   applies only if the stored document is still equal to it, so a document that another writer changed meanwhile
//!   (even one that an older release updated and kept at its old version, or a field added to it) is never
//!   overwritten with a value computed from stale data. Such documents are read again and migrated from their new
//!   content in a later pass ([`MigrationReport::retried`]); none is lost.
//! - **Resumable.** Only documents whose version is not the current one are selected, so current documents are
//!   never rewritten, and running the migration again after an interruption (a crash, a deploy, a dropped future)
//!   simply continues with what is left. The future may be dropped at any point: every document is then either at its
//!   old version or fully migrated.
//! - **Checked like every odm write.** Each migrated value is encoded with [`crate::encode`] (16 MiB, run-time keys)
//!   and each statement size-checked before anything is sent; the server's validator checks the result.
//! - **Failures are reported, not fatal.** A document that does not decode (or is at a version the model does not
//!   read, or is refused by the server) is left as it is and listed with its `_id` in
//!   [`MigrationReport::failed`]; [`Migration::fail_fast`] stops at the first one instead.
//! - **Progress and throttle.** [`Migration::on_progress`] sees every batch (done/total, rate, ETA), and
//!   [`Migration::throttle`] caps the rate or pauses between batches, to spare a busy primary.
//!
//! ```no_run
//! # async fn run(contacts: odm::Collection<impl odm::Model>) -> odm::error::Result<()> {
//! use odm::migrate::Throttle;
//! let report = contacts
//!     .migrate()
//!     .batch_size(500)
//!     .throttle(Throttle::DocsPerSecond(5_000.0))
//!     .on_progress(|p| eprintln!("{}/{} migrated, {:.0}/s, eta {:?}", p.done, p.total, p.rate(), p.eta()))
//!     .run()
//!     .await?;
//! println!("{report}");
//! for failure in &report.failed {
//!     eprintln!("not migrated: {failure}");
//! }
//! # Ok(())
//! # }
//! ```
//!
//! # The guard
//!
//! Each statement of the bulk `update` is `{q: {_id}, u: [{$replaceWith: {$cond: [{$eq: ["$$ROOT", "$$o"]}, "$$n",
//! "$$ROOT"]}}], c: {o: <document as read>, n: <migrated document>}}`: the filter is a point lookup on `_id`, and the
//! pipeline replaces the document only when it still equals the one read (every field, nested values, no field
//! added or removed), leaving it untouched otherwise. The values travel as statement constants (`c`, MongoDB 5.0+),
//! which MongoDB does not parse as expressions; a document holding a string or key that starts with `$` is sent
//! inside `$literal` instead, since some servers (SecantusDB) do evaluate `c` and would read `"$x"` as a path. A
//! guard in the filter instead (`$expr` or `$jsonSchema` beside `_id`) is as exact, but servers that cannot combine
//! such a clause with the `_id` lookup scan the collection for each statement; the model's revision is not enough,
//! since an older release, or a write around odm, may change a document without touching it. Like any MongoDB
//! comparison, the guard compares numbers by value: a change from `1` (int) to `1.0` (double) and nothing else is not
//! seen as a change.
//!
//! When every process writing the collection runs this release (or a newer one) — the usual moment to migrate, once
//! the fleet is upgraded — a cheaper guard is exact too: [`Guard::Version`]. Through odm, a document at an older
//! version never changes while staying at it (typed updates refuse older documents, and `update_changes` and
//! `replace_one` store the current version), so the version the document was read at identifies it: each statement is
//! a plain replacement filtered by `{_id, <version key>: <version as read>}` (or the key's absence), as cheap as a
//! hand-written loop's. Writes around odm, or by an older release still running, are not seen by it: keep the
//! default [`Guard::Document`] while they may happen.
//!
//! The document guard has a price: each statement carries the document twice (as read and migrated), and the server compares
//! before it replaces. A document whose two forms together pass MongoDB's statement limit (16 MiB + 16 KiB, so about
//! 8 MiB each) cannot be guarded: it is reported in [`MigrationReport::failed`] with [`Error::UpdateTooLarge`] and
//! left for [`Collection::update_changes`](crate::Collection::update_changes) or a hand-written step.
//!
//! A model that is not versioned has nothing to migrate: [`Migration::run`] fails with [`Error::Config`] saying so.

use crate::collection::{check_statement, decode, encode, write_concern_document, Collection};
use crate::error::{model_name, reply_int, write_error, Error, Result, MAX_DOCUMENT_SIZE};
use crate::model::Model;
use crate::progress;
use crate::session::Session;
use bson::{cstr, rawdoc, Bson, RawArrayBuf, RawDocument, RawDocumentBuf};
use futures_util::stream::BoxStream;
use futures_util::{StreamExt, TryStreamExt};
use mongodb::action::Action;
use std::fmt;
use std::time::{Duration, Instant};

/// How many rounds a document that keeps changing under the migration is read again before it is left for the next
/// run ([`MigrationReport::pending`]).
const MAX_RETRY_ROUNDS: u32 = 16;

/// How [`Migration::throttle`] slows a migration down.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Throttle {
    /// At most this many documents per second on average (the migration sleeps after a batch that got ahead).
    DocsPerSecond(f64),
    /// This long a pause after every batch.
    Pause(Duration),
}

/// How far a migration has come, given to [`Migration::on_progress`] after every batch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MigrationProgress {
    /// Documents dealt with so far: migrated, failed, or found deleted or already current when read again. Never
    /// decreases.
    pub done: u64,
    /// Documents not at the current version when the migration started, or `done` when more were found (older
    /// documents may be written meanwhile).
    pub total: u64,
    /// Documents migrated by this run so far.
    pub migrated: u64,
    /// Documents changed by another writer between read and write so far, read again (see
    /// [`MigrationReport::retried`]).
    pub retried: u64,
    /// Documents left unmigrated so far because they fail (see [`MigrationReport::failed`]).
    pub failed: u64,
    /// Time since the migration started, pauses included.
    pub elapsed: Duration,
}

impl MigrationProgress {
    /// Documents dealt with per second so far.
    pub fn rate(&self) -> f64 {
        progress::rate(self.done, self.elapsed)
    }

    /// The time left at the rate so far (`None` before the rate is known).
    pub fn eta(&self) -> Option<Duration> {
        progress::eta(self.done, self.total, self.elapsed)
    }

    /// The fraction done, from 0 to 1 (1 when there is nothing to do), for a progress bar.
    pub fn fraction(&self) -> f64 {
        progress::fraction(self.done, self.total)
    }
}

/// A document a migration left at its older version, and why.
#[derive(Debug)]
pub struct MigrationFailure {
    /// The document's `_id`.
    pub id: Bson,
    /// Why: [`Error::Decode`] (the document does not decode as the version it says), [`Error::Version`] (a version
    /// the model does not read, e.g. written by a newer release), an encoding error (too large, bad key), or the
    /// server's refusal ([`Error::Validation`], [`Error::Write`]).
    pub error: Error,
}

impl fmt::Display for MigrationFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "_id {}: {}", self.id, self.error)
    }
}

/// What [`Migration::run`] did.
#[derive(Debug)]
pub struct MigrationReport {
    /// The model's Rust type name.
    pub model: &'static str,
    /// The version documents were migrated to.
    pub version: u32,
    /// Documents this run wrote at the current version.
    pub migrated: u64,
    /// Documents another writer changed between this run's read and its write: the guarded write left them alone,
    /// and they were read again (then migrated from their new content, or found deleted or already current).
    pub retried: u64,
    /// Documents still changing after every retry round: left at their older version, for the next run.
    pub pending: u64,
    /// Documents left at their older version because they fail to decode, to encode, or the server refused them.
    pub failed: Vec<MigrationFailure>,
    /// Bulk `update` commands sent.
    pub batches: u64,
    /// How long the run took, pauses included.
    pub elapsed: Duration,
}

impl MigrationReport {
    /// True when every document read was migrated: none failed, none left pending.
    pub fn is_complete(&self) -> bool {
        self.failed.is_empty() && self.pending == 0
    }
}

impl fmt::Display for MigrationReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} document(s) migrated to version {} in {:.1?} ({} batch(es))",
            self.model, self.migrated, self.version, self.elapsed, self.batches
        )?;
        if self.retried > 0 {
            write!(f, "; {} changed meanwhile and were read again", self.retried)?;
        }
        if self.pending > 0 {
            write!(f, "; {} kept changing and are left for the next run", self.pending)?;
        }
        if !self.failed.is_empty() {
            write!(f, "; {} failed (left at their older version)", self.failed.len())?;
            for failure in &self.failed {
                write!(f, "\n  {failure}")?;
            }
        }
        Ok(())
    }
}

/// How each replacement of a migration makes sure the document did not change since it was read (see the
/// [module documentation](self#the-guard)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Guard {
    /// The whole document as read: exact against any writer (the default).
    #[default]
    Document,
    /// The version the document was read at: exact when every writer runs this release or a newer one; a plain
    /// replacement, as cheap as a hand-written loop's.
    Version,
}

/// The callback of [`Migration::on_progress`].
type ProgressFn<'a> = Box<dyn FnMut(&MigrationProgress) + Send + 'a>;

/// A pending migration of a collection (see the [module documentation](self)). Nothing happens until
/// [`Migration::run`].
#[must_use = "a `Migration` does nothing until `run`"]
pub struct Migration<'a, M: Model> {
    coll: &'a Collection<M>,
    batch: usize,
    throttle: Option<Throttle>,
    fail_fast: bool,
    guard: Guard,
    progress: Option<ProgressFn<'a>>,
}

impl<M: Model> Collection<M> {
    /// Migrates every stored document of a versioned model to the current version, in batches (see
    /// [`crate::migrate`]).
    ///
    /// ```no_run
    /// # async fn run(contacts: odm::Collection<impl odm::Model>) -> odm::error::Result<()> {
    /// let report = contacts.migrate().run().await?;
    /// assert!(report.is_complete(), "{report}");
    /// # Ok(())
    /// # }
    /// ```
    pub fn migrate(&self) -> Migration<'_, M> {
        Migration { coll: self, batch: 1000, throttle: None, fail_fast: false, guard: Guard::Document, progress: None }
    }
}

impl<'a, M: Model> Migration<'a, M> {
    /// Documents read and written per batch (default 1000): the read cursor's `batchSize` (each server reply holds
    /// that many documents), and one bulk `update` command each (split when the statements pass 16 MiB).
    pub fn batch_size(mut self, n: usize) -> Self {
        self.batch = n.max(1);
        self
    }

    /// Slows the migration down: a maximum average rate, or a pause after every batch.
    pub fn throttle(mut self, throttle: Throttle) -> Self {
        self.throttle = Some(throttle);
        self
    }

    /// How each replacement is guarded against a concurrent change (default [`Guard::Document`]).
    pub fn guard(mut self, guard: Guard) -> Self {
        self.guard = guard;
        self
    }

    /// Stops at the first document that cannot be migrated, with its error, instead of reporting it and going on.
    /// The batches before it stay migrated.
    pub fn fail_fast(mut self) -> Self {
        self.fail_fast = true;
        self
    }

    /// Called after every batch, for a progress bar. Setting it makes the migration count the documents to migrate
    /// first (for [`MigrationProgress::total`]), while it reads the first batch.
    pub fn on_progress(mut self, f: impl FnMut(&MigrationProgress) + Send + 'a) -> Self {
        self.progress = Some(Box::new(f));
        self
    }

    /// Runs the migration: reads the documents not at the current version in `_id` order and writes them back
    /// migrated, a batch at a time; then reads again, by `_id`, those that changed meanwhile.
    ///
    /// Fails with [`Error::Config`] when the model is not versioned, and with the server's error when a read or a
    /// bulk command fails as a whole (the batches before it stay migrated; run again to continue).
    pub async fn run(mut self) -> Result<MigrationReport> {
        let Some(spec) = M::VERSION else {
            return Err(Error::Config(format!(
                "{} is not a versioned model, so it has no older documents to migrate; declare \
                 `#[odm(version = N, older(…))]` with an `odm::Version<N>` field (see `odm::version`)",
                model_name::<M>()
            )));
        };
        let started = Instant::now();
        let run = Run::<M>::new(self.coll, self.guard, spec.key, self.batch)?;
        let older = bson::doc! { spec.key: { "$ne": i64::from(spec.current) } };
        let mut report = MigrationReport {
            model: model_name::<M>(),
            version: spec.current,
            migrated: 0,
            retried: 0,
            pending: 0,
            failed: Vec::new(),
            batches: 0,
            elapsed: Duration::ZERO,
        };
        let mut done = 0;

        // First pass: one cursor over the older documents in `_id` order, the next batch read while the current one
        // is written (its documents come later in `_id` order, so the two never meet).
        // The total, for progress, is counted while the first batch is read (and only when someone looks: it costs
        // the server a pass over the selection).
        let mut reader = Reader { cursor: run.open(&older, None).await?, last: None, older: &older, run: &run };
        let count = async {
            match self.progress {
                Some(_) => run.count(older.clone()).await,
                None => Ok::<u64, Error>(0),
            }
        };
        let (total, batch) = futures_util::future::join(count, reader.next_batch(self.batch)).await;
        let (total, mut batch) = (total?, batch?);
        let mut recheck: Vec<Bson> = Vec::new();
        let mut unresolved = 0;
        while !batch.is_empty() {
            let (outcome, next) = futures_util::future::join(
                run.batch(&batch, self.fail_fast, &mut report),
                reader.next_batch(self.batch),
            )
            .await;
            let outcome = outcome?;
            done += outcome.done;
            unresolved += outcome.unresolved;
            recheck.extend(outcome.recheck);
            self.after_batch(&report, done, total, started).await;
            batch = next?;
        }

        // Later passes: the documents whose guard missed, read again by `_id` (those migrated meanwhile or deleted
        // are no longer selected) and migrated from their new content.
        let mut round = 0;
        while !recheck.is_empty() {
            if round == MAX_RETRY_ROUNDS {
                let left = with_id(&older, bson::doc! { "$in": &recheck });
                report.pending = run.count(left).await?;
                break;
            }
            round += 1;
            let (mut next_round, mut next_unresolved, mut reread) = (Vec::new(), 0, 0);
            for ids in recheck.chunks(self.batch) {
                let filter = with_id(&older, bson::doc! { "$in": ids });
                let batch: Vec<RawDocumentBuf> = run.open_filter(filter).await?.try_collect().await?;
                report.retried += batch.len() as u64;
                reread += batch.len() as u64;
                if !batch.is_empty() {
                    let outcome = run.batch(&batch, self.fail_fast, &mut report).await?;
                    done += outcome.done;
                    next_unresolved += outcome.unresolved;
                    next_round.extend(outcome.recheck);
                }
                self.after_batch(&report, done, total, started).await;
            }
            // The unresolved documents not read again were deleted, or made current by another writer: dealt with.
            if unresolved > reread {
                done += unresolved - reread;
                self.report_progress(&report, done, total, started);
            }
            (recheck, unresolved) = (next_round, next_unresolved);
        }
        report.elapsed = started.elapsed();
        Ok(report)
    }

    /// Reports progress, then throttles.
    async fn after_batch(&mut self, report: &MigrationReport, done: u64, total: u64, started: Instant) {
        self.report_progress(report, done, total, started);
        self.pause(done, started).await;
    }

    fn report_progress(&mut self, report: &MigrationReport, done: u64, total: u64, started: Instant) {
        if let Some(progress) = &mut self.progress {
            progress(&MigrationProgress {
                done,
                total: total.max(done),
                migrated: report.migrated,
                retried: report.retried,
                failed: report.failed.len() as u64,
                elapsed: started.elapsed(),
            });
        }
    }

    /// Sleeps as long as the throttle asks after `done` documents.
    async fn pause(&self, done: u64, started: Instant) {
        let pause = match self.throttle {
            None => return,
            Some(Throttle::Pause(pause)) => pause,
            Some(Throttle::DocsPerSecond(rate)) if rate > 0.0 => {
                Duration::from_secs_f64(done as f64 / rate).saturating_sub(started.elapsed())
            }
            Some(Throttle::DocsPerSecond(_)) => return,
        };
        if !pause.is_zero() {
            tokio::time::sleep(pause).await;
        }
    }
}

/// `older` with a condition on `_id` beside it (top-level fields, not `$and`: servers that plan only top-level
/// fields still use the `_id` index).
fn with_id(older: &bson::Document, condition: bson::Document) -> bson::Document {
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
struct Reader<'r, 'c, M: Model> {
    cursor: BoxStream<'static, Result<RawDocumentBuf>>,
    last: Option<Bson>,
    older: &'r bson::Document,
    run: &'r Run<'c, M>,
}

impl<M: Model> Reader<'_, '_, M> {
    /// Up to `n` more documents (none at the end).
    async fn next_batch(&mut self, n: usize) -> Result<Vec<RawDocumentBuf>> {
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
struct Outcome {
    /// Documents dealt with: migrated or failed.
    done: u64,
    /// The `_id`s of the statements (not refused) of commands in which some guard missed: read again in a later pass.
    recheck: Vec<Bson>,
    /// How many statements of those commands neither migrated their document nor were refused: guards that missed,
    /// or documents deleted meanwhile.
    unresolved: u64,
}

/// The state of one run: the collection, the command's fixed parts.
struct Run<'c, M: Model> {
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
    fn new(coll: &'c Collection<M>, guard: Guard, version_key: &'static str, batch: usize) -> Result<Self> {
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
    async fn open(
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

    async fn open_filter(&self, filter: bson::Document) -> Result<BoxStream<'static, Result<RawDocumentBuf>>> {
        let find = self
            .raw
            .find(filter)
            .sort(bson::doc! { "_id": 1 })
            .hint(mongodb::options::Hint::Keys(bson::doc! { "_id": 1 }))
            .batch_size(self.batch_size)
            .selection_criteria(primary());
        Ok(match &self.session {
            Some(s) => {
                let cursor = find.session(&mut *s.lock().await).await?;
                crate::session::rows(cursor, s.clone())
            }
            None => find.await?.map_err(Error::from).boxed(),
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
    async fn count(&self, filter: bson::Document) -> Result<u64> {
        let count = self.raw.count_documents(filter).selection_criteria(primary());
        Ok(match &self.session {
            Some(s) => count.session(&mut *s.lock().await).await?,
            None => count.await?,
        })
    }

    /// Migrates and writes one batch of documents as read.
    async fn batch(&self, batch: &[RawDocumentBuf], fail_fast: bool, report: &mut MigrationReport) -> Result<Outcome> {
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
        let id = original
            .get("_id")
            .ok()
            .flatten()
            .ok_or_else(|| Error::Config("a stored document without `_id`".to_owned()))?;
        let mut q = RawDocumentBuf::new();
        q.append(cstr!("_id"), id);
        let mut statement = RawDocumentBuf::new();
        if self.guard == Guard::Version {
            // A plain replacement of the document as long as it is at the version it was read at.
            let key = <&bson::raw::CStr>::try_from(self.version_key).map_err(|e| Error::Config(e.to_string()))?;
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
        let reply = self
            .db
            .run_raw_command(command)
            .optional(self.session_lock().await.as_deref_mut(), |a, s| a.session(s))
            .await
            .map_err(|e| Error::from_driver(e, model_name::<M>(), M::type_meta()))?;
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

    #[test]
    fn progress_knows_its_rate_and_what_is_left() {
        let p = MigrationProgress {
            done: 500,
            total: 2000,
            migrated: 490,
            retried: 3,
            failed: 10,
            elapsed: Duration::from_secs(2),
        };
        assert_eq!(p.rate(), 250.0);
        assert_eq!(p.eta(), Some(Duration::from_secs(6)));
        assert_eq!(p.fraction(), 0.25);
        assert_eq!(MigrationProgress { elapsed: Duration::ZERO, ..p }.eta(), None);
        assert_eq!(MigrationProgress { total: 0, done: 0, ..p }.fraction(), 1.0);
    }
}
