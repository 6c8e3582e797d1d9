//! Transactions: several operations, on several collections, applied all together or not at all.
//!
//! [`Transaction::new`] starts one; [`Transaction::run`] runs a closure in it and commits it. The closure gets the
//! [`Session`](crate::Session) to bind collections to ([`Collection::with_session`](crate::Collection::with_session));
//! every operation through them is part of the transaction. MongoDB may refuse a transaction for reasons that go away
//! when it is tried again (a write conflict with a concurrent transaction, a primary stepping down): such errors carry
//! the label `TransientTransactionError`, and the whole transaction is run again, the closure included, since nothing
//! of the failed attempt was applied. A commit whose outcome is unknown (`UnknownTransactionCommitResult`: the
//! connection dropped after the server received it) is retried as a commit alone — never by running the closure again,
//! which could apply its effects twice. Both retries stop at the time bound ([`Transaction::timeout`], 120 s by
//! default, as the drivers' own), and the last error is returned.
//!
//! Transactions that conflict would conflict again if each ran again at once: before running a transaction again,
//! odm waits a random fraction (jitter) of `min(5 ms × 1.5^attempt, 500 ms)`, as the drivers' convenient-transaction
//! specification does, so concurrent writers spread out instead of trading aborts; a wait that would end past the
//! time bound is not started (the last error is returned). A commit retried alone is not delayed.
//!
//! A body ends for a reason of the application's with [`abort`]: the transaction is aborted (nothing of it is
//! applied), never retried, and the reason comes back unchanged in [`Error::Aborted`](crate::Error::Aborted), to be
//! taken out with [`Error::into_aborted`](crate::Error::into_aborted) or looked at with
//! [`Error::aborted`](crate::Error::aborted):
//!
//! ```no_run
//! # use odm::{Collection, Model, Update, bson::oid::ObjectId};
//! # #[derive(Model, serde::Serialize, serde::Deserialize)]
//! # #[odm(collection = "bank_account")]
//! # struct Account { #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "b")] balance: i64 }
//! #[derive(Debug)]
//! struct Insufficient { balance: i64 }
//! impl std::fmt::Display for Insufficient {
//!     fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
//!         write!(f, "the balance is {}", self.balance)
//!     }
//! }
//! impl std::error::Error for Insufficient {}
//!
//! # async fn demo(client: odm::mongodb::Client, from: ObjectId) -> odm::error::Result<()> {
//! let db = client.database("bank");
//! let outcome = odm::Transaction::new(&client)
//!     .run(|s| {
//!         let accounts = Collection::<Account>::new(&db).with_session(&s);
//!         async move {
//!             let f = Account::fields();
//!             accounts.update_one(f.id().eq(from), Update::new().inc(f.balance(), -100)).await?;
//!             let balance = accounts.find_one(f.id().eq(from)).await?.map_or(0, |a| a.balance);
//!             if balance < 0 {
//!                 return Err(odm::transaction::abort(Insufficient { balance }));
//!             }
//!             Ok(())
//!         }
//!     })
//!     .await;
//! match outcome.map_err(|e| e.into_aborted::<Insufficient>()) {
//!     Ok(()) => println!("moved"),
//!     Err(Ok(Insufficient { balance })) => println!("refused: the balance would be {balance}"),
//!     Err(Err(other)) => return Err(other),
//! }
//! # Ok(()) }
//! ```
//!
//! ```no_run
//! # use odm::{Collection, Model, Update, bson::oid::ObjectId};
//! # #[derive(Model, serde::Serialize, serde::Deserialize)]
//! # #[odm(collection = "bank_account", read_concern = "majority", write_concern(w = "majority"))]
//! # struct Account { #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "b")] balance: i64 }
//! # async fn demo(client: odm::mongodb::Client, from: ObjectId, to: ObjectId) -> odm::error::Result<()> {
//! let db = client.database("bank");
//! odm::Transaction::new(&client)
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
//! [`Error::Unsupported`](crate::Error::Unsupported) saying so.

pub use crate::driver::transaction::{abort, Transaction};
