//! A lease that makes the syncs of one versioned collection take turns across processes, so that a binary decides
//! what to change from what is live when it changes it: an older binary that planned before a newer one synced
//! sees, once it holds the lease, that the collection is ahead, and leaves it alone.
//!
//! The lease is one document per collection in `<db>.odm_sync_lock` (`{_id: <collection>, o: <holder>, u: <until>}`),
//! taken with an upsert that only matches an expired lease (a held one makes the insert fail on `_id`), renewed
//! while held, and deleted when done. A holder that dies leaves a lease that expires within [`LEASE`].

use crate::base::error::{Error, Result};
use crate::driver::observe::Op;
use bson::{doc, oid::ObjectId, DateTime, Document};
use mongodb::{Collection, Database};
use std::time::{Duration, SystemTime};

/// The collection holding the leases, in each model's database.
pub const LOCKS: &str = "odm_sync_lock";
/// How long a lease lasts unless renewed.
const LEASE: Duration = Duration::from_secs(15);
/// How often a holder renews it.
const RENEW_EVERY: Duration = Duration::from_secs(5);

/// A held lease; [`Lease::release`] gives it back.
pub(super) struct Lease {
    locks: Collection<Document>,
    collection: String,
    holder: ObjectId,
    renewal: Renewal,
}

/// The renewing task, stopped when the lease is dropped (a sync that times out stops renewing, and the lease
/// expires).
struct Renewal(tokio::task::JoinHandle<()>);

impl Drop for Renewal {
    fn drop(&mut self) {
        self.0.abort();
    }
}

fn until(from: SystemTime) -> DateTime {
    DateTime::from_system_time(from + LEASE)
}

/// Waits for and takes the lease of `collection` in `db`.
pub(super) async fn acquire(db: &Database, collection: &str) -> Result<Lease> {
    let locks = db.collection::<Document>(LOCKS);
    let holder = ObjectId::new();
    let mut attempt = 0u32;
    loop {
        let now = SystemTime::now();
        let expired = doc! { "_id": collection, "u": { "$lt": DateTime::from_system_time(now) } };
        let take = locks.update_one(expired, doc! { "$set": { "o": holder, "u": until(now) } }).upsert(true);
        match Op::on(&locks, "update").run(take).await {
            Ok(_) => break,
            // Held by another sync (the upsert's insert collides on `_id`): wait for it.
            Err(e) if Error::from(e.clone()).code() == Some(11000) => {
                attempt += 1;
                let jitter = u64::from(holder.bytes()[11] % 16) + u64::from(attempt.min(8)) * 5;
                tokio::time::sleep(Duration::from_millis(20 + jitter)).await;
            }
            Err(e) => return Err(e.into()),
        }
    }
    let (renew, id) = (locks.clone(), collection.to_owned());
    let renewal = Renewal(tokio::spawn(async move {
        loop {
            tokio::time::sleep(RENEW_EVERY).await;
            let extended = doc! { "$set": { "u": until(SystemTime::now()) } };
            let extend = renew.update_one(doc! { "_id": &id, "o": holder }, extended);
            if Op::on(&renew, "update").run(extend).await.is_err() {
                return;
            }
        }
    }));
    Ok(Lease { locks, collection: collection.to_owned(), holder, renewal })
}

impl Lease {
    /// Gives the lease back (if this fails, it expires on its own).
    pub(super) async fn release(self) {
        drop(self.renewal);
        let mine = doc! { "_id": &self.collection, "o": self.holder };
        if let Err(e) = Op::on(&self.locks, "delete").run(self.locks.delete_one(mine)).await {
            let e = crate::base::error::driver::Readable(&e);
            tracing::warn!(target: "odm::sync", collection = %self.collection, "sync lease not released (it expires on its own): {e}");
        }
    }
}
