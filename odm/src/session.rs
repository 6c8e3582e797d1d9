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

pub use crate::driver::session::Session;
