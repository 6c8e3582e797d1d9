//! `Transaction`: runs a closure in a session and commits it, within its time bound: run again after a random backoff
//! on a transient error, the commit alone retried when its outcome is unknown; `abort` ends one for the application's
//! reason. Users read the docs at `odm::transaction` (src/transaction.rs).

use crate::base::error::{Error, Result};
use crate::base::model::{Model, ReadConcernLevel, WriteConcernSpec};
use crate::driver::observe::{Concerns, Op};
use crate::driver::session::Session;
use mongodb::action::Action;
use mongodb::error::{TRANSIENT_TRANSACTION_ERROR, UNKNOWN_TRANSACTION_COMMIT_RESULT};
use mongodb::Client;
use std::future::Future;
use std::time::{Duration, Instant};
use tracing::Instrument;

/// A transaction to run: its concerns and time bound, then [`Transaction::run`].
#[must_use = "a transaction does nothing until `.run(…)` is awaited"]
pub struct Transaction<'c> {
    client: &'c Client,
    session: Option<Session>,
    read_concern: Option<ReadConcernLevel>,
    write_concern: Option<WriteConcernSpec>,
    timeout: Duration,
}

/// Ends a transaction body for a reason of the application's: return `Err(abort(reason))` from the body, and the
/// transaction is aborted, not retried, and `reason` comes back unchanged in [`Error::Aborted`] (see the
/// [module docs](crate::transaction)).
pub fn abort<E: std::error::Error + Send + Sync + 'static>(reason: E) -> Error {
    Error::Aborted(Box::new(reason))
}

/// The first wait before running a transaction again, and its growth per attempt.
const BACKOFF_INITIAL_MS: f64 = 5.0;
const BACKOFF_GROWTH: f64 = 1.5;
/// The longest wait between two runs of a transaction.
const BACKOFF_MAX_MS: f64 = 500.0;

/// How long to wait before attempt `attempt` (1 for the first retry): a random fraction of
/// `min(5 ms × 1.5^attempt, 500 ms)`.
fn backoff(attempt: u32, jitter: f64) -> Duration {
    let ceiling = (BACKOFF_INITIAL_MS * BACKOFF_GROWTH.powf(f64::from(attempt))).min(BACKOFF_MAX_MS);
    Duration::from_secs_f64(jitter.clamp(0.0, 1.0) * ceiling / 1000.0)
}

/// A random number in `[0, 1)`, different for each call and process (std's randomly seeded hasher over a counter
/// and the clock): jitter needs spread, not cryptographic quality, and this spares a dependency.
fn jitter() -> f64 {
    use std::hash::{BuildHasher, Hasher};
    static CALLS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
    hasher.write_u128(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos()));
    (hasher.finish() >> 11) as f64 / (1u64 << 53) as f64
}

/// What one attempt of a transaction came to.
enum Attempt<T> {
    Committed(T),
    /// Failed with a transient error: run the whole transaction again.
    Again(Error),
}

impl<'c> Transaction<'c> {
    /// A transaction on `client` in a session of its own, with the server's default concerns and a 120 s bound
    /// (see the [module docs](crate::transaction)).
    pub fn new(client: &'c Client) -> Self {
        Transaction {
            client,
            session: None,
            read_concern: None,
            write_concern: None,
            timeout: Duration::from_secs(120),
        }
    }

    /// Uses model `M`'s read concern and write concern for the whole transaction (inside a transaction they are set
    /// on the transaction, not per operation).
    pub fn concerns_of<M: Model>(mut self) -> Self {
        self.read_concern = M::READ_CONCERN.or(self.read_concern);
        self.write_concern = M::WRITE_CONCERN.or(self.write_concern);
        self
    }

    /// The transaction's read concern.
    pub fn read_concern(mut self, level: ReadConcernLevel) -> Self {
        self.read_concern = Some(level);
        self
    }

    /// The transaction's write concern (applied at commit).
    pub fn write_concern(mut self, concern: WriteConcernSpec) -> Self {
        self.write_concern = Some(concern);
        self
    }

    /// How long retries may go on (default 120 s); after it, the last error is returned.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Runs in `session` instead of a new one (its causal position carries over).
    pub fn session(mut self, session: &Session) -> Self {
        self.session = Some(session.clone());
        self
    }

    /// Runs `body` in the transaction and commits it, retrying (with backoff) as the [module docs](crate::transaction) say;
    /// returns what `body` returned. When `body` fails with an error that is not transient — [`abort`] with a reason
    /// of the application's included — the transaction is aborted and the error returned: nothing of it is applied.
    pub async fn run<T, F, Fut>(self, mut body: F) -> Result<T>
    where
        F: FnMut(Session) -> Fut,
        Fut: Future<Output = Result<T>>,
    {
        let session = match &self.session {
            Some(s) => s.clone(),
            None => Session::start(self.client).await?,
        };
        let deadline = Instant::now() + self.timeout;
        let mut attempt = 0;
        loop {
            match self.attempt(&session, &mut body, deadline, attempt + 1).await? {
                Attempt::Committed(value) => return Ok(value),
                Attempt::Again(e) => {
                    attempt += 1;
                    let wait = backoff(attempt, jitter());
                    if Instant::now() + wait >= deadline {
                        return Err(e);
                    }
                    tracing::debug!(
                        target: "odm::transaction",
                        "transient error, running the transaction again in {wait:?} (attempt {attempt}): {e}"
                    );
                    tokio::time::sleep(wait).await;
                }
            }
        }
    }

    /// The settings the transaction is sent with: its own, or the client's (as the driver resolves them).
    fn concerns(&self) -> Concerns {
        use crate::driver::observe::{read_concern_text, write_concern_text};
        let write =
            self.write_concern.map(WriteConcernSpec::to_driver).or_else(|| self.client.write_concern().cloned());
        let read = self.read_concern.map(ReadConcernLevel::to_driver).or_else(|| self.client.read_concern().cloned());
        Concerns {
            write: write.as_ref().and_then(write_concern_text),
            read: read.as_ref().map(read_concern_text),
            preference: Some("primary".to_owned()),
        }
    }

    /// One attempt (`number` 1 for the first) inside its `odm.transaction` span, its commit and abort each an
    /// operation of their own.
    async fn attempt<T, F, Fut>(
        &self,
        session: &Session,
        body: &mut F,
        deadline: Instant,
        number: u32,
    ) -> Result<Attempt<T>>
    where
        F: FnMut(Session) -> Fut,
        Fut: Future<Output = Result<T>>,
    {
        let concerns = self.concerns();
        let span = crate::driver::observe::transaction_span(number, &concerns);
        let outcome = self.attempt_in_span(session, body, deadline, number, concerns).instrument(span.clone()).await;
        span.record(
            "outcome",
            match &outcome {
                Ok(Attempt::Committed(_)) => "committed",
                Ok(Attempt::Again(_)) => "again",
                Err(_) => "aborted",
            },
        );
        outcome
    }

    async fn attempt_in_span<T, F, Fut>(
        &self,
        session: &Session,
        body: &mut F,
        deadline: Instant,
        number: u32,
        concerns: Concerns,
    ) -> Result<Attempt<T>>
    where
        F: FnMut(Session) -> Fut,
        Fut: Future<Output = Result<T>>,
    {
        {
            // Nothing is sent here: the transaction's first command carries `startTransaction` (and its read concern).
            // A transaction reads from the primary: without saying so, the driver would select the server by the
            // collection's own read preference and refuse a model that reads from secondaries.
            let primary =
                mongodb::options::SelectionCriteria::ReadPreference(mongodb::options::ReadPreference::Primary);
            let mut s = session.lock().await;
            let start = s
                .start_transaction()
                .selection_criteria(primary)
                .optional(self.read_concern, |a, r| a.read_concern(r.to_driver()))
                .optional(self.write_concern, |a, w| a.write_concern(w.to_driver()));
            start.await.map_err(unsupported)?;
        }
        session.set_in_transaction(true);
        let ending = Concerns { write: concerns.write, read: None, preference: None };
        let outcome = self.finish(session, body, deadline, number, &ending).await;
        session.set_in_transaction(false);
        outcome
    }

    /// Runs the body of an attempt in the open transaction, then commits or aborts it.
    async fn finish<T, F, Fut>(
        &self,
        session: &Session,
        body: &mut F,
        deadline: Instant,
        number: u32,
        ending: &Concerns,
    ) -> Result<Attempt<T>>
    where
        F: FnMut(Session) -> Fut,
        Fut: Future<Output = Result<T>>,
    {
        let traced = |command| Op::new("admin", "", command).attempt(number).concerns(ending.clone());
        let value = match body(session.clone()).await {
            Ok(value) => value,
            Err(e) => {
                // Whatever the body did is undone; an abort that fails leaves the transaction to expire.
                let _ = traced("abortTransaction").run(session.lock().await.abort_transaction()).await;
                let e = unsupported(e);
                return if e.has_label(TRANSIENT_TRANSACTION_ERROR) { Ok(Attempt::Again(e)) } else { Err(e) };
            }
        };
        loop {
            let committed =
                traced("commitTransaction").run(session.lock().await.commit_transaction()).await.map_err(Error::from);
            match committed {
                Ok(()) => return Ok(Attempt::Committed(value)),
                // The commit may or may not have been applied: commit again (it is idempotent), never the body.
                Err(e) if e.has_label(UNKNOWN_TRANSACTION_COMMIT_RESULT) && Instant::now() < deadline => {
                    tracing::debug!(target: "odm::transaction", "commit outcome unknown, committing again: {e}");
                }
                Err(e) if e.has_label(TRANSIENT_TRANSACTION_ERROR) => return Ok(Attempt::Again(e)),
                Err(e) => return Err(e),
            }
        }
    }
}

/// A server that cannot run transactions answers with `IllegalOperation` (20, "Transaction numbers are only
/// allowed on a replica set member or mongos"), or the driver refuses first: say so plainly.
fn unsupported(e: impl Into<Error>) -> Error {
    let e = e.into();
    let text = e.to_string();
    let refused = e.code() == Some(20) || text.contains("Transactions are not supported by this deployment");
    if refused {
        return Error::Unsupported { feature: crate::base::error::Feature::Transactions, said: text };
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_grows_by_half_per_attempt_up_to_half_a_second_scaled_by_jitter() {
        assert_eq!(backoff(1, 1.0), Duration::from_secs_f64(0.0075));
        assert_eq!(backoff(2, 1.0), Duration::from_secs_f64(0.01125));
        assert_eq!(backoff(20, 1.0), Duration::from_millis(500));
        assert_eq!(backoff(20, 0.5), Duration::from_millis(250));
        assert_eq!(backoff(3, 0.0), Duration::ZERO);
    }

    #[test]
    fn jitter_stays_in_the_unit_interval_and_spreads() {
        let draws: Vec<f64> = (0..1000).map(|_| jitter()).collect();
        assert!(draws.iter().all(|j| (0.0..1.0).contains(j)));
        let low = draws.iter().filter(|j| **j < 0.5).count();
        assert!((350..650).contains(&low), "{low} of 1000 below one half");
    }
}
