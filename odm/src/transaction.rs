//! Transactions: several operations, on several collections, applied all together or not at all.
//!
//! [`transaction`] runs a closure in a transaction and commits it. The closure gets the [`Session`] to bind
//! collections to ([`Collection::with_session`](crate::Collection::with_session)); every operation through them is
//! part of the transaction. MongoDB may refuse a transaction for reasons that go away when it is tried again (a write
//! conflict with a concurrent transaction, a primary stepping down): such errors carry the label
//! `TransientTransactionError`, and the whole transaction is run again, the closure included, since nothing of the
//! failed attempt was applied. A commit whose outcome is unknown (`UnknownTransactionCommitResult`: the connection
//! dropped after the server received it) is retried as a commit alone — never by running the closure again, which
//! could apply its effects twice. Both retries stop at the time bound ([`Transaction::timeout`], 120 s by default,
//! as the drivers' own), and the last error is returned.
//!
//! ```no_run
//! # use odm::{Collection, Model, Update, bson::oid::ObjectId};
//! # #[derive(Model, serde::Serialize, serde::Deserialize)]
//! # #[odm(collection = "bank_account", read_concern = "majority", write_concern(w = "majority"))]
//! # struct Account { #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "b")] balance: i64 }
//! # async fn demo(client: odm::mongodb::Client, from: ObjectId, to: ObjectId) -> odm::error::Result<()> {
//! let db = client.database("bank");
//! odm::transaction(&client)
//!     .concerns_of::<Account>()
//!     .run(|s| {
//!         let accounts = Collection::<Account>::new(&db).with_session(&s);
//!         async move {
//!             let f = Account::fields();
//!             accounts.update_one(f.id().eq(from), Update::new().inc(f.balance(), -100)).await?;
//!             accounts.update_one(f.id().eq(to), Update::new().inc(f.balance(), 100)).await?;
//!             Ok(())
//!         }
//!     })
//!     .await?;
//! # Ok(()) }
//! ```
//!
//! Transactions need a replica set or a sharded cluster; against a standalone server the call fails at once with
//! [`Error::Config`] saying so.

use crate::error::{Error, Result};
use crate::model::{Model, ReadConcernLevel, WriteConcernSpec};
use crate::session::Session;
use mongodb::action::Action;
use mongodb::error::{TRANSIENT_TRANSACTION_ERROR, UNKNOWN_TRANSACTION_COMMIT_RESULT};
use mongodb::Client;
use std::future::Future;
use std::time::{Duration, Instant};

/// A transaction to run: its concerns and time bound, then [`Transaction::run`].
#[must_use = "a transaction does nothing until `.run(…)` is awaited"]
pub struct Transaction<'c> {
    client: &'c Client,
    session: Option<Session>,
    read_concern: Option<ReadConcernLevel>,
    write_concern: Option<WriteConcernSpec>,
    timeout: Duration,
}

/// A transaction on `client` (see the [module docs](self)).
pub fn transaction(client: &Client) -> Transaction<'_> {
    Transaction { client, session: None, read_concern: None, write_concern: None, timeout: Duration::from_secs(120) }
}

/// What one attempt of a transaction came to.
enum Attempt<T> {
    Committed(T),
    /// Failed with a transient error: run the whole transaction again.
    Again(Error),
}

impl<'c> Transaction<'c> {
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
    pub fn in_session(mut self, session: &Session) -> Self {
        self.session = Some(session.clone());
        self
    }

    /// Runs `body` in the transaction and commits it, retrying as the [module docs](self) say; returns what `body`
    /// returned. When `body` fails with an error that is not transient, the transaction is aborted and the error
    /// returned: nothing of it is applied.
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
        loop {
            match self.attempt(&session, &mut body, deadline).await? {
                Attempt::Committed(value) => return Ok(value),
                Attempt::Again(e) if Instant::now() < deadline => {
                    tracing::debug!(target: "odm::transaction", "transient error, running the transaction again: {e}");
                }
                Attempt::Again(e) => return Err(e),
            }
        }
    }

    async fn attempt<T, F, Fut>(&self, session: &Session, body: &mut F, deadline: Instant) -> Result<Attempt<T>>
    where
        F: FnMut(Session) -> Fut,
        Fut: Future<Output = Result<T>>,
    {
        {
            let mut s = session.lock().await;
            let start = s
                .start_transaction()
                .optional(self.read_concern, |a, r| a.read_concern(r.to_driver()))
                .optional(self.write_concern, |a, w| a.write_concern(w.to_driver()));
            start.await.map_err(unsupported)?;
        }
        session.set_in_transaction(true);
        let outcome = self.finish(session, body, deadline).await;
        session.set_in_transaction(false);
        outcome
    }

    /// Runs the body of an attempt in the open transaction, then commits or aborts it.
    async fn finish<T, F, Fut>(&self, session: &Session, body: &mut F, deadline: Instant) -> Result<Attempt<T>>
    where
        F: FnMut(Session) -> Fut,
        Fut: Future<Output = Result<T>>,
    {
        let value = match body(session.clone()).await {
            Ok(value) => value,
            Err(e) => {
                // Whatever the body did is undone; an abort that fails leaves the transaction to expire.
                let _ = session.lock().await.abort_transaction().await;
                let e = unsupported(e);
                return if e.has_label(TRANSIENT_TRANSACTION_ERROR) { Ok(Attempt::Again(e)) } else { Err(e) };
            }
        };
        loop {
            let committed = session.lock().await.commit_transaction().await.map_err(Error::from);
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
        return Error::Config(format!(
            "this server cannot run transactions: they need a replica set or a sharded cluster (a standalone mongod \
             refuses them; start it as a one-member replica set with `--replSet`): {text}"
        ));
    }
    e
}
