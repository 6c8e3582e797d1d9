//! Seeing what odm sends: one `tracing` span per operation, values only when asked.
//!
//! Every command odm sends to the server — reads and writes of a [`Collection`](crate::Collection), bulk writes,
//! pipelines, find-and-modify, the sync's reads and changes, the schema checker's queries, migration batches, change
//! streams being opened, and a transaction's commit and abort — runs inside exactly one span:
//!
//! - level `DEBUG`, target **`odm::op`**, name `odm.op` (one target for every area, so one filter such as
//!   `RUST_LOG=odm::op=debug` shows them all);
//! - fields set when it starts: `db`, `collection` (empty for a command on the database), `command` (the command
//!   as it goes on the wire: `find`, `insert`, `update`, `delete`, `aggregate` — a count of matching documents is
//!   sent as `aggregate`, and its span says so —, `findAndModify`, `count` (an estimated count), `listCollections`,
//!   `listIndexes`, `create`, `createIndexes`, `collMod`, `dropIndexes`, `hello`, `commitTransaction`,
//!   `abortTransaction`, …);
//! - the settings it is sent with, each only when the command carries it (the model's, or those its client or URI
//!   sets; absent, the server's default applies): `write_concern` (`"majority"`, `"1"`, `"majority, j=true,
//!   wtimeout=5000ms"`), `read_concern` (`"majority"`, `"local"`, …) and `read_preference` (`"primary"`,
//!   `"secondaryPreferred"`, …);
//! - fields recorded once, when it ends: `duration_ms` (from when odm began the operation, a wait for a shared
//!   [`Session`](crate::Session) included, to the reply); the documents affected where the reply says
//!   (`returned`, `inserted`, `matched`, `modified`, `upserted`, `deleted`); on failure the server's `error_code`
//!   and `error_name` (`121` / `DocumentValidationFailure`, `11000` / `DuplicateKey`, …); for a commit or abort, the
//!   transaction's `attempt` (1 for the first try, more when a transient error made it run again).
//!
//! A span covers the command and the reply: for a `find` or a pipeline awaited whole it covers every batch read
//! (the `getMore` commands of its cursor are part of it); for a stream (`.stream()`), the opening (later batches are
//! read as the stream is polled).
//!
//! ## Transactions
//!
//! Each attempt of a [`Transaction`](crate::Transaction) is a span named `odm.transaction` (target `odm::op`)
//! around the attempt's operations and its commit or abort, with `attempt`, the transaction's `read_concern`,
//! `write_concern` and `read_preference` (always `primary`), and its `outcome` when it ends (`committed`, `again`
//! when a transient error runs it again, `aborted`). Starting a transaction sends nothing (its first command carries
//! `startTransaction` and the read concern), so it has no `odm.op` span; the operations inside carry no settings of
//! their own, and the commit carries the transaction's write concern.
//!
//! ## In tests
//!
//! `odm::testing::SpanCapture` (feature `testing`) captures these spans, every value
//! recorded into each field, for a test to compare with what the driver reports it sent.
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

pub use crate::driver::observe::trace_values;
