//! Seeing what odm sends: one `tracing` span per operation, values only when asked.
//!
//! Every command odm sends to the server — reads and writes of a [`Collection`](crate::Collection), bulk writes,
//! pipelines, find-and-modify, the sync's reads and changes, the schema checker's queries, migration batches, change
//! streams being opened, and a transaction's start, commit and abort — runs inside one span:
//!
//! - level `DEBUG`, target **`odm::op`**, name `odm.op` (one target for every area, so one filter such as
//!   `RUST_LOG=odm::op=debug` shows them all);
//! - fields set when it starts: `db`, `collection` (empty for a command on the database), `command` (the server's
//!   command name: `find`, `insert`, `update`, `delete`, `aggregate`, `findAndModify`, `bulkWrite`, `count`,
//!   `listCollections`, `listIndexes`, `create`, `createIndexes`, `collMod`, `dropIndexes`, `hello`,
//!   `startTransaction`, `commitTransaction`, `abortTransaction`, …);
//! - fields recorded when it ends: `duration_ms` (from when odm began the operation, a wait for a shared
//!   [`Session`](crate::Session) included, to the reply); the documents affected where the reply says
//!   (`returned`, `inserted`, `matched`, `modified`, `upserted`, `deleted`); on failure the server's `error_code`
//!   and `error_name` (`121` / `DocumentValidationFailure`, `11000` / `DuplicateKey`, …); for a transaction, the
//!   `attempt` (1 for the first try, more when a transient error made it run again).
//!
//! A span covers the command and the reply: for a `find` or a pipeline awaited whole it covers every batch read;
//! for a stream (`.stream()`), the opening (later batches are read as the stream is polled).
//!
//! ## Values only when asked
//!
//! Filters, updates and documents may hold personal data, so by default no span carries any value: only names,
//! counts, durations and codes. An operator who needs the command bodies turns them on with the environment variable
//! **`ODM_TRACE_VALUES=1`** (read once, at the first operation: switched on for a run without rebuilding the
//! program) or from the program with [`trace_values`] (a debug flag of its own command line, say). Each operation
//! then also emits one `TRACE` event, target **`odm::op::values`**, inside its span, with the body in the field
//! `values` (the document as `bson` displays it); the subscriber must also let `TRACE` through for that target.
//! While the switch is off the body is not even built.
//!
//! ## The driver's own command events
//!
//! odm's spans name the operation odm performed; the driver can report every wire command it sends (including
//! `getMore`, `killCursors`, handshakes) with its request id. Attach a handler to the client options before building
//! the client:
//!
//! ```no_run
//! # async fn demo() -> odm::mongodb::error::Result<()> {
//! use odm::mongodb::event::{command::CommandEvent, EventHandler};
//! use odm::mongodb::{options::ClientOptions, Client};
//!
//! let mut options = ClientOptions::parse("mongodb://localhost:27017").await?;
//! options.command_event_handler = Some(EventHandler::callback(|event: CommandEvent| match event {
//!     CommandEvent::Started(e) => tracing::debug!(target: "mongodb::command", id = e.request_id, "{}", e.command_name),
//!     CommandEvent::Succeeded(e) => tracing::debug!(target: "mongodb::command", id = e.request_id, ms = e.duration.as_millis() as u64, "ok"),
//!     CommandEvent::Failed(e) => tracing::debug!(target: "mongodb::command", id = e.request_id, "failed: {}", e.failure),
//!     _ => {}
//! }));
//! let client = Client::with_options(options)?;
//! # let _ = client; Ok(()) }
//! ```
//!
//! The driver's `Started` event carries the whole command, values included: log it only where values may be seen.
//!
//! What is live on the server (validators, options, indexes) is read with [`crate::live`].

mod op;
mod values;

pub(crate) use op::{raw_value, Op, Returned};
pub use values::trace_values;
