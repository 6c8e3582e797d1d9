//! `Session`: one causally consistent driver session, shared by the collections bound to it and used by one operation
//! at a time, and `rows`, a cursor read through it batch by batch. Users read the docs at `odm::session`
//! (src/session.rs).

use crate::base::error::{Error, Result};
use bson::{RawDocument, RawDocumentBuf};
use futures_util::stream::{BoxStream, StreamExt};
use mongodb::{Client, ClientSession, SessionCursor};
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use tokio::sync::{Mutex, OwnedMutexGuard};

/// A causally consistent session, shared by the collections bound to it (see the [module docs](crate::session)).
#[derive(Clone)]
pub struct Session {
    inner: Arc<Mutex<ClientSession>>,
    /// Set while [`Transaction::run`](crate::Transaction::run) runs a transaction in it: operations then carry no write concern of their
    /// own (the transaction's applies).
    in_transaction: Arc<AtomicBool>,
}

impl fmt::Debug for Session {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Session").finish_non_exhaustive()
    }
}

impl Session {
    /// Starts a causally consistent session on `client`.
    pub async fn start(client: &Client) -> Result<Session> {
        let session = client.start_session().causal_consistency(true).await?;
        Ok(Session::from_driver(session))
    }

    /// Wraps a session started with the driver.
    pub fn from_driver(session: ClientSession) -> Session {
        Session { inner: Arc::new(Mutex::new(session)), in_transaction: Arc::new(AtomicBool::new(false)) }
    }

    /// The driver session, for operations odm does not type; waits for the operation in flight, if any.
    pub async fn lock(&self) -> OwnedMutexGuard<ClientSession> {
        self.inner.clone().lock_owned().await
    }

    /// Makes this session causally after `other`: its next reads see everything `other` wrote or read (its
    /// operation and cluster times carried over). Use it to read, on one connection, what another wrote.
    pub async fn advance_to(&self, other: &Session) {
        if Arc::ptr_eq(&self.inner, &other.inner) {
            return;
        }
        let (operation, cluster) = {
            let other = other.inner.lock().await;
            (other.operation_time(), other.cluster_time().cloned())
        };
        let mut me = self.inner.lock().await;
        if let Some(cluster) = cluster {
            me.advance_cluster_time(&cluster);
        }
        if let Some(operation) = operation {
            me.advance_operation_time(operation);
        }
    }

    /// True while a transaction started by [`Transaction::run`](crate::Transaction::run) is open in this session.
    pub fn in_transaction(&self) -> bool {
        self.in_transaction.load(Ordering::Acquire)
    }

    pub(crate) fn set_in_transaction(&self, open: bool) {
        self.in_transaction.store(open, Ordering::Release);
    }

    /// The time of the session's last operation, as the server reported it (`None` before the first).
    pub async fn operation_time(&self) -> Option<bson::Timestamp> {
        self.inner.lock().await.operation_time()
    }
}

/// The documents of a cursor opened in `session`, as a stream: each batch is read through the session, locked for
/// that read only, so other operations of the session may run between two batches.
pub(crate) fn rows(
    cursor: SessionCursor<RawDocumentBuf>,
    session: Session,
) -> BoxStream<'static, Result<RawDocumentBuf>> {
    futures_util::stream::unfold((cursor, session), |(mut cursor, session)| async move {
        let next = {
            let mut locked = session.lock().await;
            cursor.next(&mut locked).await
        }?;
        Some((next.map_err(Error::from), (cursor, session)))
    })
    // Read to the end, a cursor answers "no more" again when asked (as the driver's own cursors do).
    .fuse()
    .boxed()
}

/// The documents a read returns: the driver's cursor, each document decoded where it lies in the batch (no copy), or
/// in a session, the documents copied out of each batch read under the session's lock.
pub(crate) enum Rows<'a> {
    Cursor(Box<mongodb::Cursor<RawDocumentBuf>>),
    Session(futures_util::stream::BoxStream<'a, Result<RawDocumentBuf>>),
}

impl<'a> Rows<'a> {
    /// The next document decoded by `decode`, or `None` after the last.
    pub(crate) async fn next<P>(&mut self, decode: fn(&RawDocument) -> Result<P>) -> Option<Result<P>> {
        match self {
            Rows::Cursor(cursor) => match cursor.advance().await {
                Ok(true) => Some(decode(cursor.current())),
                Ok(false) => None,
                Err(e) => Some(Err(Error::from(e))),
            },
            Rows::Session(rows) => {
                futures_util::TryStreamExt::try_next(rows).await.transpose().map(|raw| raw.and_then(|raw| decode(&raw)))
            }
        }
    }

    /// The documents as a stream, each decoded by `decode` where it lies.
    pub(crate) fn decoded<P: Send + 'a>(self, decode: fn(&RawDocument) -> Result<P>) -> BoxStream<'a, Result<P>> {
        futures_util::stream::unfold(self, move |mut rows| async move { Some((rows.next(decode).await?, rows)) })
            // Read to the end, it answers "no more" again when asked, as the driver's cursors do.
            .fuse()
            .boxed()
    }
}
