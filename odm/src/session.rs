//! Sessions: operations that see each other's effects in order (causal consistency), and the unit a transaction runs
//! in.
//!
//! A [`Session`] is a handle to one driver session, cheap to clone and shared by every [`Collection`] bound to it
//! with [`Collection::with_session`]: each operation through such a collection runs in the session, one at a time
//! (MongoDB runs a session's operations in order). Sessions are causally consistent: a read in the session sees
//! the session's earlier writes, even from a secondary (`read_preference = "secondary"`), as long as the model reads
//! and writes with `majority` concerns. Across two connections (two clients, two services), carry one session's
//! position over with [`Session::advance_to`]: the second then reads what the first wrote.
//!
//! ```no_run
//! # use odm::{Collection, Model, Session, bson::oid::ObjectId};
//! # #[derive(Model, serde::Serialize, serde::Deserialize)]
//! # #[odm(collection = "crm_note", read_concern = "majority", write_concern(w = "majority"))]
//! # struct Note { #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "t")] text: String }
//! # async fn demo(writer: odm::mongodb::Client, reader: odm::mongodb::Client) -> odm::error::Result<()> {
//! let written = Session::start(&writer).await?;
//! let note = Note { id: ObjectId::new(), text: "hello".into() };
//! Collection::<Note>::new(&writer.database("crm")).with_session(&written).insert_one(&note).await?;
//!
//! // Another connection: its session starts after the write, so its read sees it.
//! let read = Session::start(&reader).await?;
//! read.advance_to(&written).await;
//! let notes = Collection::<Note>::new(&reader.database("crm")).with_session(&read);
//! assert!(notes.find_one(Note::fields().id().eq(note.id)).await?.is_some());
//! # Ok(()) }
//! ```
//!
//! [`Collection`]: crate::Collection
//! [`Collection::with_session`]: crate::Collection::with_session

use crate::error::{Error, Result};
use bson::RawDocumentBuf;
use futures_util::stream::{BoxStream, StreamExt};
use mongodb::{Client, ClientSession, SessionCursor};
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use tokio::sync::{Mutex, OwnedMutexGuard};

/// A causally consistent session, shared by the collections bound to it (see the [module docs](self)).
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
