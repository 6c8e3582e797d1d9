//! One operation's span: opened with its names, then run around the operation's future, which records the
//! consistency settings it is sent with, how long it took, what the reply counted and, on failure, the server's code
//! — each field once, however many steps the operation takes.

use super::concerns::Concerns;
use super::values::values_on;
use bson::Document;
use std::future::{Future, IntoFuture};
use std::sync::Once;
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
    /// The settings the command is sent with, recorded when the operation starts (builder methods may still
    /// change them until then).
    concerns: Concerns,
    /// Set once the settings are recorded.
    started_recorded: Once,
    /// Set once the outcome (duration, counts, error) is recorded: an operation in steps records it at its end only.
    ended: Once,
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
            write_concern = Empty,
            read_concern = Empty,
            read_preference = Empty,
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
        Op {
            span,
            started: Instant::now(),
            command,
            concerns: Concerns::default(),
            started_recorded: Once::new(),
            ended: Once::new(),
        }
    }

    /// An operation `command` on the driver collection `coll`, sent with the collection's settings as the driver
    /// applies them to such a command (outside a transaction: see [`Op::in_session`]).
    pub(crate) fn on<T: Send + Sync>(coll: &mongodb::Collection<T>, command: &'static str) -> Op {
        let mut op = Op::new(coll.namespace().db.as_str(), coll.name(), command);
        op.concerns = Concerns::of_collection(coll, command);
        op
    }

    /// Run in `session`: inside a transaction the operation carries no setting of its own.
    pub(crate) fn in_session(mut self, session: Option<&crate::driver::session::Session>) -> Self {
        if session.is_some_and(crate::driver::session::Session::in_transaction) {
            self.concerns = std::mem::take(&mut self.concerns).in_transaction();
        }
        self
    }

    /// Sent as the command document `command` (run as given, so with only the settings it holds).
    pub(crate) fn sent(mut self, command: &Document) -> Self {
        self.concerns = Concerns::of_command(command);
        self
    }

    /// Sent as the raw command `command` (see [`Op::sent`]).
    pub(crate) fn sent_raw(mut self, command: &bson::RawDocument) -> Self {
        self.concerns = Concerns::of_raw_command(command);
        self
    }

    /// Sent with read preference `criteria`, set on this operation instead of the collection's.
    pub(crate) fn read_preference(mut self, criteria: &mongodb::options::SelectionCriteria) -> Self {
        self.concerns.preference = super::concerns::read_preference_text(criteria);
        self
    }

    /// A transaction's settings, on its commit or abort (which the driver sends with its write concern).
    pub(crate) fn concerns(mut self, concerns: Concerns) -> Self {
        self.concerns = concerns;
        self
    }

    /// An operation `command` on database `db` itself (`create`, `collMod`, `hello`, …), naming the collection it
    /// is about, if any.
    pub(crate) fn on_db(db: &mongodb::Database, collection: &str, command: &'static str) -> Op {
        let mut op = Op::new(db.name(), collection, command);
        op.concerns = Concerns::of_database(db, command);
        op
    }

    /// A database command built as a document (`{ collMod: "order_header", … }`), named by its first key and about
    /// the collection its first value names; its body is the values ([`Op::values`]).
    pub(crate) fn command(db: &mongodb::Database, command: &Document) -> Op {
        let (name, collection) = match command.iter().next() {
            Some((key, value)) => (command_name(key), value.as_str().unwrap_or_default()),
            None => ("command", ""),
        };
        Op::on_db(db, collection, name).sent(command).values(|| command.clone())
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
        let n = crate::driver::error::reply_int(reply, "n").unwrap_or(0).max(0) as u64;
        match self.command {
            "insert" => self.span.record("inserted", n),
            "delete" => self.span.record("deleted", n),
            _ => {
                let upserted = reply.get_array("upserted").map_or(0, |u| u.len() as u64);
                self.span.record("matched", n.saturating_sub(upserted));
                self.span
                    .record("modified", crate::driver::error::reply_int(reply, "nModified").unwrap_or(0).max(0) as u64);
                self.span.record("upserted", upserted)
            }
        };
    }

    /// Records which attempt of a transaction this is (1 for the first).
    pub(crate) fn attempt(self, attempt: u32) -> Self {
        self.span.record("attempt", attempt);
        self
    }

    /// Runs `operation` inside the span as the operation's last (or only) step, and records its duration, its
    /// counts and, on failure, the server's code.
    pub(crate) fn run<'a, F, T, E>(&'a self, operation: F) -> impl Future<Output = Result<T, E>> + 'a
    where
        F: IntoFuture<Output = Result<T, E>>,
        F::IntoFuture: 'a,
        T: 'a,
        E: 'a,
        T: Affected,
        E: ServerCode,
    {
        self.step(operation, true)
    }

    /// Runs `operation` inside the span as a first step of several (a cursor opened, then read by a later
    /// [`Op::run`]): nothing is recorded of it unless it fails, which ends the operation.
    pub(crate) fn open<'a, F, T, E>(&'a self, operation: F) -> impl Future<Output = Result<T, E>> + 'a
    where
        F: IntoFuture<Output = Result<T, E>>,
        F::IntoFuture: 'a,
        T: 'a,
        E: 'a,
        T: Affected,
        E: ServerCode,
    {
        self.step(operation, false)
    }

    /// Ends an operation whose last step was [`Op::open`] (a stream handed to the caller): records its duration.
    pub(crate) fn end(&self) {
        self.ended.call_once(|| self.record_duration());
    }

    /// Records the end of an operation whose steps all ran with [`Op::open`] (a cursor read to its end by the
    /// caller): its duration and what it affected.
    pub(crate) fn finish(&self, affected: &impl Affected) {
        self.ended.call_once(|| {
            self.record_duration();
            affected.record(&self.span);
        });
    }

    /// Records the settings the operation is sent with, once, when its first step starts.
    fn record_start(&self) {
        self.started_recorded.call_once(|| {
            let c = &self.concerns;
            for (field, value) in
                [("write_concern", &c.write), ("read_concern", &c.read), ("read_preference", &c.preference)]
            {
                if let Some(value) = value {
                    self.span.record(field, value.as_str());
                }
            }
        });
    }

    fn record_duration(&self) {
        self.span.record("duration_ms", self.started.elapsed().as_secs_f64() * 1000.0);
    }

    /// Records the end of a failed operation, once: its duration and, when the server answered with one, its code.
    fn record_failure(&self, e: &impl ServerCode) {
        self.ended.call_once(|| {
            self.record_duration();
            if let Some((code, name)) = e.server_code() {
                self.span.record("error_code", code);
                if let Some(name) = name.filter(|n| !n.is_empty()) {
                    self.span.record("error_name", name);
                }
            }
        });
    }

    fn step<'a, F, T, E>(&'a self, operation: F, last: bool) -> impl Future<Output = Result<T, E>> + 'a
    where
        F: IntoFuture<Output = Result<T, E>>,
        F::IntoFuture: 'a,
        T: 'a,
        E: 'a,
        T: Affected,
        E: ServerCode,
    {
        self.record_start();
        // Turned into its future here, not inside the async block: the block then holds only that future, and is
        // `Send` whenever it is (the driver's actions borrow sessions with lifetimes the compiler cannot relate
        // through `IntoFuture` inside a generic async block).
        let operation = operation.into_future().instrument(self.span.clone());
        async move {
            let out = operation.await;
            match &out {
                Ok(value) if last => self.finish(value),
                Ok(_) => {}
                Err(e) => self.record_failure(e),
            }
            out
        }
    }
}

/// The span of one attempt of a transaction (`number` 1 for the first), around its operations, its commit or abort:
/// it sends nothing itself (the first operation carries `startTransaction`), so it is named `odm.transaction`, not
/// `odm.op`. Its `outcome` is recorded when the attempt ends.
pub(crate) fn transaction_span(number: u32, concerns: &Concerns) -> Span {
    tracing::debug_span!(
        target: "odm::op",
        "odm.transaction",
        attempt = number,
        read_concern = concerns.read.as_deref(),
        write_concern = concerns.write.as_deref(),
        read_preference = concerns.preference.as_deref(),
        outcome = Empty,
    )
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
        crate::base::error::driver::code_of(self)
    }
}

impl ServerCode for crate::base::error::Error {
    fn server_code(&self) -> Option<(i32, Option<&str>)> {
        match self {
            crate::base::error::Error::Driver(e) => e.server_code(),
            crate::base::error::Error::Validation(_) => Some((121, Some("DocumentValidationFailure"))),
            other => other.code().map(|c| (c, crate::base::error::driver::known_name(c))),
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
// A cursor advanced (`true` while it has a document).
impl Affected for bool {}
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
