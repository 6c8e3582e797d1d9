//! One operation's span: opened with its names, then run around the operation's future, which records how long it
//! took, what the reply counted and, on failure, the server's code.

use super::values::values_on;
use bson::Document;
use std::future::{Future, IntoFuture};
use std::time::Instant;
use tracing::field::Empty;
use tracing::{Instrument, Span};

/// The span of one operation odm sends (see [the module docs](super) for its fields).
pub(crate) struct Op {
    span: Span,
    /// When odm started the operation: the duration recorded is from here, so an operation run in steps (a find
    /// opened, then read to the end) records its whole time at its last step.
    started: Instant,
    /// The command name, which decides what a write command's counts mean.
    command: &'static str,
}

impl Op {
    /// An operation `command` on `collection` of database `db` (`collection` empty for a database command).
    pub(crate) fn new(db: &str, collection: &str, command: &'static str) -> Op {
        let span = tracing::debug_span!(
            target: "odm::op",
            "odm.op",
            db,
            collection,
            command,
            duration_ms = Empty,
            returned = Empty,
            inserted = Empty,
            matched = Empty,
            modified = Empty,
            upserted = Empty,
            deleted = Empty,
            attempt = Empty,
            error_code = Empty,
            error_name = Empty,
        );
        Op { span, started: Instant::now(), command }
    }

    /// An operation `command` on the driver collection `coll`.
    pub(crate) fn on<T: Send + Sync>(coll: &mongodb::Collection<T>, command: &'static str) -> Op {
        Op::new(coll.namespace().db.as_str(), coll.name(), command)
    }

    /// An operation `command` on database `db` itself (`create`, `collMod`, `hello`, …), naming the collection it
    /// is about, if any.
    pub(crate) fn on_db(db: &mongodb::Database, collection: &str, command: &'static str) -> Op {
        Op::new(db.name(), collection, command)
    }

    /// A database command built as a document (`{ collMod: "order_header", … }`), named by its first key and about
    /// the collection its first value names; its body is the values ([`Op::values`]).
    pub(crate) fn command(db: &mongodb::Database, command: &Document) -> Op {
        let (name, collection) = match command.iter().next() {
            Some((key, value)) => (command_name(key), value.as_str().unwrap_or_default()),
            None => ("command", ""),
        };
        Op::on_db(db, collection, name).values(|| command.clone())
    }

    /// Adds the command's body (`{ filter, update, … }`) as a `TRACE` event inside the span, only when values may
    /// be traced ([`super::trace_values`]); `body` is not even built otherwise.
    pub(crate) fn values(self, body: impl FnOnce() -> Document) -> Self {
        if values_on() && tracing::enabled!(target: "odm::op::values", tracing::Level::TRACE) {
            let body = body();
            self.span.in_scope(|| tracing::trace!(target: "odm::op::values", values = %body, "values sent"));
        }
        self
    }

    /// Records the counts of a write command's reply (`insert`, `update`, `delete` sent whole, as a bulk write
    /// sends them): `n`, `nModified` and `upserted`.
    pub(crate) fn write_counts(&self, reply: &Document) {
        let n = crate::error::reply_int(reply, "n").unwrap_or(0).max(0) as u64;
        match self.command {
            "insert" => self.span.record("inserted", n),
            "delete" => self.span.record("deleted", n),
            _ => {
                let upserted = reply.get_array("upserted").map_or(0, |u| u.len() as u64);
                self.span.record("matched", n.saturating_sub(upserted));
                self.span.record("modified", crate::error::reply_int(reply, "nModified").unwrap_or(0).max(0) as u64);
                self.span.record("upserted", upserted)
            }
        };
    }

    /// Records which attempt of a transaction this is (1 for the first).
    pub(crate) fn attempt(self, attempt: u32) -> Self {
        self.span.record("attempt", attempt);
        self
    }

    /// Runs one step of an operation read in steps (a cursor opened, then advanced batch by batch) inside the
    /// span, recording nothing: the caller records the outcome once, with [`Op::finish`] or [`Op::failed`].
    pub(crate) fn within<F: IntoFuture>(&self, step: F) -> tracing::instrument::Instrumented<F::IntoFuture> {
        step.into_future().instrument(self.span.clone())
    }

    /// Records the end of an operation run with [`Op::within`]: its duration and what it affected.
    pub(crate) fn finish(&self, affected: &impl Affected) {
        self.span.record("duration_ms", self.started.elapsed().as_secs_f64() * 1000.0);
        affected.record(&self.span);
    }

    /// Records the failure of an operation run with [`Op::within`] (its duration and the server's code) and gives
    /// the error back, as odm's.
    pub(crate) fn failed<E: ServerCode + Into<crate::error::Error>>(&self, e: E) -> crate::error::Error {
        self.record_error(&e);
        e.into()
    }

    /// Records the duration and, when the server answered with one, the code of a failure.
    fn record_error(&self, e: &impl ServerCode) {
        self.span.record("duration_ms", self.started.elapsed().as_secs_f64() * 1000.0);
        if let Some((code, name)) = e.server_code() {
            self.span.record("error_code", code);
            if let Some(name) = name.filter(|n| !n.is_empty()) {
                self.span.record("error_name", name);
            }
        }
    }

    /// Runs `operation` inside the span and records its duration, its counts and, on failure, the server's code.
    /// An operation in steps runs each through its span (what is recorded last stands).
    pub(crate) fn run<F, T, E>(&self, operation: F) -> impl Future<Output = Result<T, E>> + use<'_, F, T, E>
    where
        F: IntoFuture<Output = Result<T, E>>,
        T: Affected,
        E: ServerCode,
    {
        // Turned into its future here, not inside the async block: the block then holds only that future, and is
        // `Send` whenever it is (the driver's actions borrow sessions with lifetimes the compiler cannot relate
        // through `IntoFuture` inside a generic async block).
        let operation = operation.into_future().instrument(self.span.clone());
        async move {
            let out = operation.await;
            match &out {
                Ok(value) => self.finish(value),
                Err(e) => self.record_error(e),
            }
            out
        }
    }
}

/// The commands odm builds as documents, by name (a span's name is static); any other is `command`.
fn command_name(key: &str) -> &'static str {
    const KNOWN: [&str; 13] = [
        "create",
        "renameCollection",
        "collMod",
        "createIndexes",
        "dropIndexes",
        "drop",
        "enableSharding",
        "shardCollection",
        "hello",
        "buildInfo",
        "explain",
        // odm's records of the indexes it owns (`odm_index`).
        "update",
        "delete",
    ];
    KNOWN.into_iter().find(|k| *k == key).unwrap_or("command")
}

/// What a reply says was affected, recorded on the span of the operation that got it.
pub(crate) trait Affected {
    /// Records the counts this reply carries (nothing by default: a cursor, a command reply).
    fn record(&self, _span: &Span) {}
}

/// The server's code and code name in an error, when the server answered with one.
pub(crate) trait ServerCode {
    /// `(code, code name)`.
    fn server_code(&self) -> Option<(i32, Option<&str>)>;
}

impl ServerCode for mongodb::error::Error {
    fn server_code(&self) -> Option<(i32, Option<&str>)> {
        crate::server_reply::code_of(self)
    }
}

impl ServerCode for crate::error::Error {
    fn server_code(&self) -> Option<(i32, Option<&str>)> {
        match self {
            crate::error::Error::Driver(e) => e.server_code(),
            crate::error::Error::Validation(_) => Some((121, Some("DocumentValidationFailure"))),
            other => other.code().map(|c| (c, crate::server_reply::known_name(c))),
        }
    }
}

impl Affected for mongodb::results::InsertOneResult {
    fn record(&self, span: &Span) {
        span.record("inserted", 1_u64);
    }
}

impl Affected for mongodb::results::InsertManyResult {
    fn record(&self, span: &Span) {
        span.record("inserted", self.inserted_ids.len() as u64);
    }
}

impl Affected for mongodb::results::UpdateResult {
    fn record(&self, span: &Span) {
        span.record("matched", self.matched_count);
        span.record("modified", self.modified_count);
        span.record("upserted", u64::from(self.upserted_id.is_some()));
    }
}

impl Affected for mongodb::results::DeleteResult {
    fn record(&self, span: &Span) {
        span.record("deleted", self.deleted_count);
    }
}

impl<T> Affected for Option<T> {
    fn record(&self, span: &Span) {
        span.record("returned", u64::from(self.is_some()));
    }
}

impl<T> Affected for Vec<T> {
    fn record(&self, span: &Span) {
        span.record("returned", self.len() as u64);
    }
}

/// How many documents an operation read, where its result is not the documents themselves.
pub(crate) struct Returned(pub(crate) u64);

impl Affected for Returned {
    fn record(&self, span: &Span) {
        span.record("returned", self.0);
    }
}

/// A number the operation counted (`count` of documents, a bulk write's tally): recorded by its caller, if at all.
impl Affected for u64 {}
impl Affected for () {}
impl Affected for Document {}
impl Affected for bson::RawDocumentBuf {}
impl<T> Affected for mongodb::Cursor<T> {}
impl<T> Affected for mongodb::SessionCursor<T> {}
impl<T: serde::de::DeserializeOwned + Unpin + Send + Sync> Affected for mongodb::change_stream::ChangeStream<T> {}
impl<T: serde::de::DeserializeOwned + Unpin + Send + Sync> Affected
    for mongodb::change_stream::session::SessionChangeStream<T>
{
}
impl<T> Affected for futures_util::stream::BoxStream<'_, T> {}

/// A stored document as a value of a traced body (empty if it does not read as a document).
pub(crate) fn raw_value(raw: &bson::RawDocumentBuf) -> Document {
    Document::try_from(raw.as_ref()).unwrap_or_default()
}
