//! The [`Migration`] builder ([`Collection::migrate`](crate::Collection::migrate)) and its run: the passes over
//! older documents, progress callbacks and throttling.

use super::batch::{with_id, Reader, Run};
use crate::base::error::{Error, Result};
use crate::base::migrate::options::{Guard, Throttle};
use crate::base::migrate::report::MigrationReport;
use crate::base::model::model_name;
use crate::base::model::Model;
use crate::base::progress::Progress;
use crate::driver::collection::Collection;
use crate::driver::progress::OnProgress;
use bson::{Bson, RawDocumentBuf};
use futures_util::TryStreamExt;
use std::time::{Duration, Instant};

/// How many rounds a document that keeps changing under the migration is read again before it is left for the next
/// run ([`MigrationReport::pending`]).
const MAX_RETRY_ROUNDS: u32 = 16;

/// A pending migration of a collection (see the [module documentation](crate::migrate)). Nothing happens until it
/// is awaited.
#[must_use = "a `Migration` does nothing until it is awaited"]
pub struct Migration<'a, M: Model> {
    /// Borrowed, or a copy bound to the session [`Migration::session`] gave it.
    coll: std::borrow::Cow<'a, Collection<M>>,
    batch: usize,
    throttle: Option<Throttle>,
    fail_fast: bool,
    guard: Guard,
    progress: Option<OnProgress<'a>>,
}

impl<M: Model> Collection<M> {
    /// Migrates every stored document of a versioned model to the current version, in batches (see
    /// [`crate::migrate`]).
    ///
    /// ```no_run
    /// # async fn run(contacts: odm::Collection<impl odm::Model>) -> odm::error::Result<()> {
    /// let report = contacts.migrate().await?;
    /// assert!(report.is_complete(), "{report}");
    /// # Ok(())
    /// # }
    /// ```
    pub fn migrate(&self) -> Migration<'_, M> {
        Migration {
            coll: std::borrow::Cow::Borrowed(self),
            batch: 1000,
            throttle: None,
            fail_fast: false,
            guard: Guard::Document,
            progress: None,
        }
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

    /// Reads and writes every batch in `session`. It wins over the session of a collection bound with
    /// [`Collection::with_session`]. A migration's batches are separate commands, so a session whose transaction is
    /// open holds them all in that transaction (and the server's limits on one).
    pub fn session(mut self, session: &crate::driver::session::Session) -> Self {
        self.coll = std::borrow::Cow::Owned(self.coll.with_session(session));
        self
    }

    /// Called after every batch, for a progress bar. Setting it makes the migration count the documents to migrate
    /// first (for [`Progress::total`]), while it reads the first batch.
    pub fn on_progress(mut self, f: impl FnMut(&Progress) + Send + 'a) -> Self {
        self.progress = Some(Box::new(f));
        self
    }

    /// Runs the migration: reads the documents not at the current version in `_id` order and writes them back
    /// migrated, a batch at a time; then reads again, by `_id`, those that changed meanwhile.
    ///
    /// Fails with [`Error::NotVersioned`] when the model is not versioned, and with the server's error when a read or a
    /// bulk command fails as a whole (the batches before it stay migrated; run again to continue).
    async fn execute(mut self) -> Result<MigrationReport> {
        let Some(spec) = M::VERSION else {
            return Err(Error::NotVersioned { model: model_name::<M>() });
        };
        let started = Instant::now();
        // A handle of its own (a reference, or a copy of the handle), so that the run borrows it and not the builder.
        let coll = self.coll.clone();
        let run = Run::<M>::new(&coll, self.guard, spec.key, self.batch)?;
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
        let counting = self.progress.is_some();
        let count = async {
            if counting {
                run.count(older.clone()).await
            } else {
                Ok::<u64, Error>(0)
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
        // Computed before the await: a `&self` held across it would make the future need a `Sync` callback.
        let pause = self.pause(done, started);
        if !pause.is_zero() {
            tokio::time::sleep(pause).await;
        }
    }

    fn report_progress(&mut self, report: &MigrationReport, done: u64, total: u64, started: Instant) {
        if let Some(progress) = &mut self.progress {
            progress(&Progress {
                done,
                total: total.max(done),
                migrated: report.migrated,
                retried: report.retried,
                failed: report.failed.len() as u64,
                repaired: 0,
                elapsed: started.elapsed(),
            });
        }
    }

    /// How long the throttle asks to sleep after `done` documents.
    fn pause(&self, done: u64, started: Instant) -> Duration {
        match self.throttle {
            Some(Throttle::Pause(pause)) => pause,
            Some(Throttle::DocsPerSecond(rate)) if rate > 0.0 => {
                Duration::from_secs_f64(done as f64 / rate).saturating_sub(started.elapsed())
            }
            None | Some(Throttle::DocsPerSecond(_)) => Duration::ZERO,
        }
    }
}

/// Runs the migration: reads the documents not at the current version in `_id` order and writes them back migrated,
/// a batch at a time; then reads again, by `_id`, those that changed meanwhile. Fails when the model is not
/// versioned, and with the server's error when a read or a bulk command fails as a whole (the batches before it stay
/// migrated; run again to continue).
impl<'a, M: Model> std::future::IntoFuture for Migration<'a, M> {
    type Output = Result<MigrationReport>;
    type IntoFuture = futures_util::future::BoxFuture<'a, Result<MigrationReport>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.execute())
    }
}
