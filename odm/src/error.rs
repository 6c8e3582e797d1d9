//! Errors a person can read: server validation failures (code 121) and decode failures are translated from stored
//! keys back to Rust field paths, with the rule and the expected vs actual type; documents over 16 MiB are named as
//! such, whether odm refused them before sending or the server did.

use crate::meta::{rust_name, TypeMeta};
use bson::{Bson, Document, RawDocumentBuf};
use mongodb::change_stream::event::ResumeToken;
use std::fmt;

/// The result type of odm operations.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// The largest document MongoDB stores (`BSONObjMaxUserSize`, 16 MiB).
pub const MAX_DOCUMENT_SIZE: usize = 16 * 1024 * 1024;

/// The largest update statement MongoDB takes: a filter with its update or replacement (and array filters) may
/// exceed [`MAX_DOCUMENT_SIZE`] by 16 KiB (`BSONObjMaxInternalSize`), room for the filter beside a full replacement.
pub const MAX_STATEMENT_SIZE: usize = MAX_DOCUMENT_SIZE + 16 * 1024;

/// Server codes for a write whose resulting document would exceed [`MAX_DOCUMENT_SIZE`]: 10334 `BSONObjectTooLarge`
/// (updates, in current servers), 17419 (updates, in earlier ones), 17420 (upserts).
const RESULT_TOO_LARGE: [i32; 3] = [10334, 17419, 17420];

/// An odm error.
///
/// Its `Debug` is its `Display` text: a `main` returning `Result<_, Box<dyn Error>>` prints an error with `Debug`,
/// and the driver's own `Debug` holds the server's reply as raw bytes.
#[non_exhaustive]
pub enum Error {
    /// The server rejected a write because the document failed the collection's validator (code 121).
    Validation(Box<ValidationError>),
    /// A value could not be serialized to BSON (nothing was sent).
    Serialize {
        /// The model's Rust type name.
        model: &'static str,
        /// The serializer's error.
        source: Box<bson::error::Error>,
    },
    /// A stored document could not be decoded into the model.
    Decode(Box<DecodeError>),
    /// A stored document is at a version this binary does not read: written by a newer release, or older than the
    /// oldest version the model still lists (see [`crate::version`]).
    Version(Box<VersionError>),
    /// A typed update matched documents at an older version the model reads: applied to them it would leave a
    /// document mixing two versions' fields, so none of them was updated (see [`crate::version`]).
    NotMigrated(Box<NotMigratedError>),
    /// A typed filter names a field that older versions lack or store differently while documents of older
    /// versions remain: it would silently miss them, so it was not sent (see [`crate::version`]).
    FilterNotMigrated(Box<crate::version::FilterNotMigratedError>),
    /// A single-document operation on a sharded model whose filter does not hold the shard key (or `_id`) to one
    /// value, so it would be sent to every shard; refused before sending by the model's
    /// [`Scatter`](crate::Scatter) policy (see [`crate::shard`]).
    ScatterGather(Box<ScatterGatherError>),
    /// Operations of a bulk write failed (see [`crate::bulk`]): each with its index and error, beside what was
    /// applied.
    Bulk(Box<BulkError>),
    /// The server refused one write of a bulk command (of a [bulk write](crate::bulk) or a
    /// [migration](crate::migrate)) with an error other than a validation failure, which is [`Error::Validation`]
    /// (a duplicate key, say).
    Write {
        /// The model's Rust type name.
        model: &'static str,
        /// The server's error code (11000: duplicate key).
        code: i32,
        /// The server's message.
        message: String,
    },
    /// The encoded document exceeds 16 MiB; it was not sent.
    DocumentTooLarge {
        /// The model's Rust type name.
        model: &'static str,
        /// The encoded size in bytes.
        size: usize,
        /// The limit in bytes.
        limit: usize,
    },
    /// An update statement (the filter with the update or replacement, and array filters) encodes to more than MongoDB
    /// takes ([`MAX_STATEMENT_SIZE`]); it was not sent.
    UpdateTooLarge {
        /// The model's Rust type name.
        model: &'static str,
        /// The encoded size in bytes.
        size: usize,
        /// The limit in bytes.
        limit: usize,
    },
    /// The server refused a write because the document it would leave is over 16 MiB: an update that grows a stored
    /// document past the limit, or an upsert that would insert one. Only the server can tell, since the stored
    /// document is not known before the write. An `update_many` stops at that document; documents it updated before
    /// stay updated.
    ResultTooLarge {
        /// The model's Rust type name.
        model: &'static str,
        /// The server's code: 10334 (`BSONObjectTooLarge`), 17419 or 17420.
        code: i32,
        /// The server's message.
        message: String,
    },
    /// A key chosen at run time (a map key) cannot be stored: it starts with `$`, or contains `.` or NUL. Nothing was
    /// sent.
    InvalidKey {
        /// The model's Rust type name.
        model: &'static str,
        /// The stored path of the offending key (`c.a.b`).
        path: String,
        /// Why MongoDB cannot take it.
        reason: &'static str,
    },
    /// A filter, sort, projection or update was refused before sending: two operators on one path, a value that
    /// does not encode, a bad map key or array filter identifier, an empty update, a guard on an upsert.
    InvalidOperation {
        /// The model's Rust type name.
        model: &'static str,
        /// What is wrong, naming the stored path.
        reason: String,
    },
    /// A guarded write ([`crate::Collection::update_changes`], [`crate::Collection::replace_one`] on a model with a
    /// revision, see [`crate::Model::REVISION`]) found the document at another revision than the value it was based
    /// on: another writer changed it since it was read. Nothing was written; reload the document, apply the change
    /// to the fresh value and try again.
    Conflict {
        /// The model's Rust type name.
        model: &'static str,
        /// The `_id` of the document that moved on (boxed: errors stay small on the success path).
        id: Box<Bson>,
        /// The revision the write was based on.
        expected: i64,
        /// The stored revision when the conflict was found (`None`: the document holds none, e.g. written before the
        /// model had a revision).
        found: Option<i64>,
    },
    /// A guarded write found no document matching its filter: the document was deleted, or never inserted. Nothing
    /// was written (and nothing was inserted).
    NotFound {
        /// The model's Rust type name.
        model: &'static str,
        /// The `_id` of the value the write was based on, when it has one.
        id: Option<Box<Bson>>,
    },
    /// A sync in verify mode found the database different from the models, or a report's pending drift was
    /// turned into an error ([`crate::SyncReport::require_in_sync`]); the plan says how.
    Drift(Box<crate::sync::plan::Plan>),
    /// Two models given to one sync name the same collection: each would replace the other's validator and drop
    /// its indexes as stale. Nothing was sent.
    SharedCollection {
        /// `<db>.<collection>`.
        namespace: String,
        /// The Rust type that named it first.
        first: &'static str,
        /// The Rust type that named it again.
        second: &'static str,
    },
    /// A transaction body ended for a reason of the application's ([`crate::transaction::abort`]): the transaction
    /// was aborted, nothing of it was applied, and the reason is handed back as it was given
    /// ([`Error::aborted`], [`Error::into_aborted`]).
    Aborted(Box<dyn std::error::Error + Send + Sync + 'static>),
    /// A change stream event whose document does not decode as the model (see [`crate::watch`]). The stream goes on
    /// after it: reading the next event skips this one, and so does resuming after its token.
    UndecodableChange(Box<UndecodableChange>),
    /// A configuration problem (e.g. a model without a database), or a sync that timed out.
    Config(String),
    /// Any other driver or server error. Shown by the server's code, code name and message; the driver error (with
    /// the server's whole reply) is here, for a program to match on. It is not the error's
    /// [`source`](std::error::Error::source): reporters that print the chain of sources (`anyhow`, `eyre`) would
    /// print the driver's text, which carries the reply's bytes.
    Driver(mongodb::error::Error),
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Validation(v) => v.fmt(f),
            Error::Serialize { model, source } => write!(f, "{model}: cannot serialize to BSON: {source}"),
            Error::Decode(d) => d.fmt(f),
            Error::Version(v) => v.fmt(f),
            Error::NotMigrated(n) => n.fmt(f),
            Error::FilterNotMigrated(n) => n.fmt(f),
            Error::ScatterGather(s) => s.fmt(f),
            Error::Bulk(b) => b.fmt(f),
            Error::Write { model, code, message } => {
                write!(f, "{model}: the server refused the write ({code}): {message}")
            }
            Error::DocumentTooLarge { model, size, limit } => write!(
                f,
                "{model}: document is {size} bytes, over MongoDB's limit of {limit} bytes (16 MiB); it was not sent"
            ),
            Error::UpdateTooLarge { model, size, limit } => write!(
                f,
                "{model}: the update statement (filter with update or replacement) is {size} bytes, over the {limit} \
                 bytes MongoDB takes (16 MiB + 16 KiB); it was not sent"
            ),
            Error::ResultTooLarge { model, code, message } => {
                // The server wraps the reason in its executor's context (`… :: caused by :: reason`).
                let reason = message.rsplit(":: caused by :: ").next().unwrap_or(message);
                write!(
                    f,
                    "{model}: the write would leave a document larger than MongoDB's limit of {MAX_DOCUMENT_SIZE} \
                     bytes (16 MiB), so the server refused it (code {code}: {reason})"
                )
            }
            Error::InvalidKey { model, path, reason } => {
                write!(f, "{model}: key at `{path}` cannot be stored: {reason}; nothing was sent")
            }
            Error::InvalidOperation { model, reason } => write!(f, "{model}: {reason}; nothing was sent"),
            Error::Conflict { model, id, expected, found } => {
                let now = match found {
                    Some(found) => format!("is at revision {found}"),
                    None => "holds no revision".to_owned(),
                };
                write!(
                    f,
                    "{model} with _id {id}: the write was based on revision {expected}, but the stored document {now}: \
                     another writer changed it since it was read, so nothing was written; reload the document, apply \
                     the change again and retry"
                )
            }
            Error::NotFound { model, id: Some(id) } => write!(
                f,
                "{model} with _id {id}: no document matches the filter (it was deleted, or never inserted), so nothing \
                 was written"
            ),
            Error::NotFound { model, id: None } => {
                write!(f, "{model}: no document matches the filter (it was deleted, or never inserted), so nothing was written")
            }
            Error::Drift(plan) => write!(f, "the database differs from the models:\n{plan}"),
            Error::SharedCollection { namespace, first, second } if first == second => {
                write!(f, "`{first}` is given to one sync twice (collection {namespace}); nothing was sent")
            }
            Error::SharedCollection { namespace, first, second } => write!(
                f,
                "`{first}` and `{second}` both name the collection {namespace}; one collection has one model (each \
                 would replace the other's validator and drop its indexes): give one of them its own collection. \
                 Nothing was sent"
            ),
            Error::Aborted(reason) => write!(f, "the transaction was aborted, nothing of it applied: {reason}"),
            Error::UndecodableChange(c) => c.fmt(f),
            Error::Config(m) => f.write_str(m),
            Error::Driver(e) => crate::server_reply::Readable(e).fmt(f),
        }
    }
}

/// Documents a typed update matched at an older version ([`Error::NotMigrated`]).
#[derive(Debug, Clone, PartialEq)]
pub struct NotMigratedError {
    /// The model's Rust type name.
    pub model: &'static str,
    /// How many documents matching the filter are at an older version (at least 1).
    pub count: u64,
    /// The `_id` of one of them.
    pub id: Option<Bson>,
    /// Its version (`None`: no version key, read as the oldest).
    pub version: Option<i64>,
    /// The version this release writes.
    pub current: u32,
}

impl fmt::Display for NotMigratedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let NotMigratedError { model, count, id, version, current } = self;
        let id = id.as_ref().map_or_else(String::new, |id| format!(" _id {id}"));
        let version = version.map_or_else(|| "without a version key".to_owned(), |v| format!("at version {v}"));
        write!(
            f,
            "{model}: {count} document(s) matching the filter are at an older version (e.g.{id}, {version}); a typed \
             update would leave them mixing that version's fields with version {current}'s, so none of them was \
             updated: store them at version {current} first (read, which migrates, then `replace_one` or \
             `update_changes`), then retry"
        )
    }
}

/// What a bulk write applied.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BulkResult {
    /// Documents inserted.
    pub inserted: u64,
    /// Documents matched by updates and replacements.
    pub matched: u64,
    /// Documents changed by updates and replacements.
    pub modified: u64,
    /// Documents deleted.
    pub deleted: u64,
    /// Upserts that inserted: the operation's index and the new `_id`.
    pub upserted: Vec<(usize, Bson)>,
}

/// One failed operation of a bulk write.
#[derive(Debug)]
pub struct BulkFailure {
    /// Its index, in the order operations were added.
    pub index: usize,
    /// What it was (`insert`, `update_one`, `delete_many`, …).
    pub operation: &'static str,
    /// Why it failed, mapped as the single-document call maps it.
    pub error: Error,
}

/// A bulk write that failed in part or whole ([`Error::Bulk`]).
#[derive(Debug)]
pub struct BulkError {
    /// The model's Rust type name.
    pub model: &'static str,
    /// What was applied.
    pub done: BulkResult,
    /// The failed operations.
    pub failures: Vec<BulkFailure>,
    /// Operations not attempted (an ordered write stops at its first failure).
    pub not_attempted: usize,
    /// A write concern error, when the server could not confirm the write concern.
    pub write_concern: Option<String>,
}

impl fmt::Display for BulkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: bulk write: {} operation(s) failed", self.model, self.failures.len())?;
        for failure in &self.failures {
            write!(f, "; operation {} ({}): {}", failure.index, failure.operation, failure.error)?;
        }
        if self.not_attempted > 0 {
            write!(f, "; {} later operation(s) not attempted (ordered)", self.not_attempted)?;
        }
        if let Some(wc) = &self.write_concern {
            write!(f, "; write concern: {wc}")?;
        }
        Ok(())
    }
}

/// A single-document operation that would reach every shard ([`Error::ScatterGather`]).
#[derive(Debug, Clone, PartialEq)]
pub struct ScatterGatherError {
    /// The model's Rust type name.
    pub model: &'static str,
    /// The operation (`find_one`, `update_one`, …).
    pub operation: &'static str,
    /// The shard key fields the filter does not hold to one value, as Rust paths (`Order.customer`).
    pub missing: Vec<String>,
}

impl fmt::Display for ScatterGatherError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ScatterGatherError { model, operation, missing } = self;
        let fields = missing.iter().map(|m| format!("`{m}`")).collect::<Vec<_>>().join(", ");
        write!(
            f,
            "{model}: `{operation}` would be sent to every shard: its filter does not hold the shard key field(s) \
             {fields} to one value (nor `_id`); add an equality on them to the filter, or set `#[odm(scatter = \
             \"warn\")]` (or `\"allow\"`) on the model to send it anyway (rule `shard-scatter`); nothing was sent"
        )
    }
}

/// A stored document at a version the model does not read ([`Error::Version`]).
#[derive(Debug, Clone, PartialEq)]
pub struct VersionError {
    /// The model's Rust type name.
    pub model: &'static str,
    /// The document's `_id`, when it has one.
    pub id: Option<Bson>,
    /// The version stored in the document.
    pub found: i64,
    /// The version this release writes.
    pub current: u32,
    /// The oldest version it reads.
    pub oldest: u32,
}

impl fmt::Display for VersionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let VersionError { model, id, found, current, oldest } = self;
        let id = id.as_ref().map_or_else(|| "without _id".to_owned(), |id| format!("with _id {id}"));
        if *found > i64::from(*current) {
            write!(
                f,
                "{model}: the document {id} is at version {found}, newer than version {current} this \
                 release writes: it was written by a newer release, so read it with that one"
            )
        } else {
            write!(
                f,
                "{model}: the document {id} is at version {found}, but this release reads versions \
                 {oldest} to {current}: keep the older shape in `older(…)` with its migration step, or migrate \
                 the collection with a release that still reads it"
            )
        }
    }
}

/// A change stream event whose document does not decode as the model ([`Error::UndecodableChange`]): what a
/// consumer needs to record it and go on (see [`crate::watch`]).
pub struct UndecodableChange {
    /// Where to resume to skip this event ([`crate::watch::Watch::resume_after`]).
    pub token: ResumeToken,
    /// The changed document's `_id`.
    pub id: Bson,
    /// The server's name for the change: `insert` or `replace` (an update whose document does not decode is not an
    /// error: see [`crate::watch::Change::Update`]).
    pub operation: String,
    /// The document as the event carried it.
    pub raw: RawDocumentBuf,
    /// Why it does not decode: an [`Error::Decode`], or an [`Error::Version`] for a version this binary does not
    /// read.
    pub error: Box<Error>,
}

impl fmt::Display for UndecodableChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a change stream `{}` event does not decode: {}; the stream goes on with the next event, and resuming \
             after this event's token skips it",
            self.operation, self.error
        )
    }
}

/// The raw document and the token shown as documents, not as their bytes.
impl fmt::Debug for UndecodableChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let token = bson::serialize_to_bson(&self.token).ok();
        f.debug_struct("UndecodableChange")
            .field("token", &token)
            .field("id", &self.id)
            .field("operation", &self.operation)
            .field("raw", &Shown(&self.raw))
            .field("error", &self.error)
            .finish()
    }
}

/// A raw document in `Debug` as its fields (its bytes say nothing to a reader), or as bytes if it is not valid BSON.
pub(crate) struct Shown<'a>(pub(crate) &'a RawDocumentBuf);

impl fmt::Debug for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match Document::try_from(self.0) {
            Ok(doc) => doc.fmt(f),
            Err(_) => self.0.fmt(f),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Serialize { source, .. } => Some(source.as_ref()),
            Error::Decode(d) => Some(&d.source),
            Error::UndecodableChange(c) => Some(c.error.as_ref()),
            Error::Aborted(reason) => Some(reason.as_ref()),
            _ => None,
        }
    }
}

impl From<mongodb::error::Error> for Error {
    fn from(e: mongodb::error::Error) -> Self {
        Error::Driver(e)
    }
}

impl Error {
    /// The application's reason a transaction body gave to [`crate::transaction::abort`], when it is an `E`.
    ///
    /// ```
    /// #[derive(Debug, PartialEq)]
    /// struct Insufficient { balance: i64 }
    /// # impl std::fmt::Display for Insufficient {
    /// #     fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { write!(f, "balance {}", self.balance) }
    /// # }
    /// # impl std::error::Error for Insufficient {}
    /// let e = odm::transaction::abort(Insufficient { balance: 40 });
    /// assert_eq!(e.aborted::<Insufficient>(), Some(&Insufficient { balance: 40 }));
    /// assert_eq!(e.into_aborted::<Insufficient>().unwrap(), Insufficient { balance: 40 });
    /// ```
    pub fn aborted<E: std::error::Error + 'static>(&self) -> Option<&E> {
        match self {
            Error::Aborted(reason) => reason.downcast_ref::<E>(),
            _ => None,
        }
    }

    /// The application's reason a transaction body gave to [`crate::transaction::abort`], moved out, when it is an
    /// `E`; any other error is given back as it is.
    pub fn into_aborted<E: std::error::Error + 'static>(self) -> std::result::Result<E, Error> {
        match self {
            Error::Aborted(reason) if reason.is::<E>() => match reason.downcast::<E>() {
                Ok(reason) => Ok(*reason),
                Err(reason) => Err(Error::Aborted(reason)),
            },
            other => Err(other),
        }
    }

    /// True when the server (or the driver) labelled the error `label`, e.g.
    /// [`mongodb::error::TRANSIENT_TRANSACTION_ERROR`]: errors odm raises itself carry no label.
    pub fn has_label(&self, label: &str) -> bool {
        matches!(self, Error::Driver(e) if e.contains_label(label))
    }

    /// The server's own words for a refused command (`code (CodeName): message`), without driver internals;
    /// the full error otherwise.
    pub fn server_message(&self) -> String {
        if let Error::Driver(e) = self {
            if let mongodb::error::ErrorKind::Command(c) = e.kind.as_ref() {
                return format!("{} ({}): {}", c.code, c.code_name, c.message);
            }
        }
        self.to_string()
    }

    /// The server error code, when the server answered with one.
    pub fn code(&self) -> Option<i32> {
        match self {
            Error::Validation(_) => Some(121),
            Error::ResultTooLarge { code, .. } | Error::Write { code, .. } => Some(*code),
            Error::Driver(e) => driver_code(e),
            _ => None,
        }
    }

    /// A filter, sort, projection or update for `M` refused before sending: the marked stored paths in `reason`
    /// named as `M`'s Rust paths.
    pub(crate) fn invalid_operation<M: crate::Model>(reason: &str) -> Self {
        Error::InvalidOperation { model: model_name::<M>(), reason: crate::meta::name_paths(reason, M::type_meta()) }
    }

    /// Interprets a driver error from a write to `M`'s collection (made with the raw driver, say): validation
    /// failures become a field-level [`ValidationError`], anything else stays a driver error.
    pub fn from_write<M: crate::Model>(e: mongodb::error::Error) -> Self {
        Self::from_driver(e, model_name::<M>(), M::type_meta())
    }

    /// Turns a driver error into a [`ValidationError`] when it is code 121, naming fields through `meta`, and into
    /// [`Error::ResultTooLarge`] when the server refused a document over 16 MiB.
    pub(crate) fn from_driver(e: mongodb::error::Error, model: &'static str, meta: Option<&'static TypeMeta>) -> Self {
        use mongodb::error::{ErrorKind, WriteFailure};
        let too_large = match e.kind.as_ref() {
            ErrorKind::Write(WriteFailure::WriteError(we)) => Some((we.code, &we.message)),
            ErrorKind::Command(ce) => Some((ce.code, &ce.message)),
            _ => None,
        };
        if let Some((code, message)) = too_large.filter(|(code, _)| RESULT_TOO_LARGE.contains(code)) {
            return Error::ResultTooLarge { model, code, message: message.clone() };
        }
        let details = match e.kind.as_ref() {
            ErrorKind::Write(WriteFailure::WriteError(we)) if we.code == 121 => Some(we.details.clone()),
            ErrorKind::InsertMany(im) => {
                im.write_errors.as_ref().and_then(|errs| errs.iter().find(|w| w.code == 121)).map(|w| w.details.clone())
            }
            // findAndModify reports 121 as a command error; its `errInfo` is only in the raw reply.
            ErrorKind::Command(ce) if ce.code == 121 => Some(
                e.server_response()
                    .and_then(|r| r.get_document("errInfo").ok())
                    .and_then(|d| Document::try_from(d).ok()),
            ),
            _ => None,
        };
        match details {
            Some(info) => Error::Validation(Box::new(ValidationError::parse(model, meta, info))),
            None => Error::Driver(e),
        }
    }
}

/// The name errors give model `M`: its Rust type name (the collection's for a model without field metadata).
pub(crate) fn model_name<M: crate::Model>() -> &'static str {
    M::type_meta().map_or(M::COLLECTION, |m| m.name)
}

fn driver_code(e: &mongodb::error::Error) -> Option<i32> {
    use mongodb::error::{ErrorKind, WriteFailure};
    match e.kind.as_ref() {
        ErrorKind::Write(WriteFailure::WriteError(we)) => Some(we.code),
        ErrorKind::Write(WriteFailure::WriteConcernError(wc)) => Some(wc.code),
        ErrorKind::Command(ce) => Some(ce.code),
        ErrorKind::InsertMany(im) => im.write_errors.as_ref().and_then(|w| w.first()).map(|w| w.code),
        _ => None,
    }
}

/// A stored document that does not decode into its model.
#[derive(Debug)]
pub struct DecodeError {
    /// The model's Rust type name.
    pub model: &'static str,
    /// The `_id` of the document, when it has one.
    pub id: Option<Bson>,
    /// The Rust path of the value that failed, or of the required field that is missing (`Order.items[0].quantity`);
    /// empty when the document itself failed.
    pub path: String,
    /// The stored key path of the value that failed, or of the missing field (`it.0.q`); empty when the document
    /// itself failed.
    pub stored_path: String,
    /// The decoder's error.
    pub source: bson::error::Error,
}

impl DecodeError {
    /// Names where decoding failed through `meta`, as validation errors name fields: the decoder reports the stored
    /// path (in `source.key`, filled in by odm's decode, see [`crate::failing_path`]).
    pub(crate) fn new(
        model: &'static str,
        meta: Option<&'static TypeMeta>,
        id: Option<Bson>,
        source: bson::error::Error,
    ) -> Self {
        let stored_path = source.key.clone().unwrap_or_default();
        let path = crate::meta::rust_name(meta, &stored_path, false).unwrap_or_else(|| stored_path.clone());
        DecodeError { model, id, path, stored_path, source }
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.id {
            Some(id) => write!(f, "{}: cannot decode document with _id {id}: ", self.model)?,
            None => write!(f, "{}: cannot decode document without _id: ", self.model)?,
        }
        if !self.stored_path.is_empty() {
            let rust = (self.path != self.stored_path).then_some(self.path.as_str());
            write!(f, "{}: ", crate::meta::named(rust, &self.stored_path))?;
        }
        // The decoder's own text repeats the stored path; its message alone says what was wrong.
        match self.source.message.as_deref() {
            // The path already ends with the missing field's key.
            Some(m) if !self.stored_path.is_empty() && crate::failing_path::missing_field(m).is_some() => {
                f.write_str("missing, but the field is required")
            }
            Some(message) => f.write_str(message),
            None => write!(f, "{}", self.source.kind),
        }
    }
}

/// A document rejected by the collection validator, explained field by field.
#[derive(Debug, Clone)]
pub struct ValidationError {
    /// The model's Rust type name.
    pub model: &'static str,
    /// Each failing rule, by Rust field path.
    pub failures: Vec<FieldFailure>,
    /// The server's `errInfo`, as sent.
    pub details: Option<Document>,
}

/// One failing rule of a [`ValidationError`].
#[derive(Debug, Clone, PartialEq)]
pub struct FieldFailure {
    /// The Rust path (`items[2].price`); empty for the document itself.
    pub path: String,
    /// The stored key path (`it.2.p`).
    pub stored_path: String,
    /// The rule that failed (`bsonType`, `required`, `maxItems`, `additionalProperties`, `$expr`, …).
    pub rule: String,
    /// What the rule expects (e.g. the BSON type), when the server says.
    pub expected: Option<String>,
    /// What the document had (e.g. the BSON type found; a string's length, not the string), when the server says.
    pub actual: Option<String>,
    /// For a document that matches no variant of a polymorphic model (or of an embedded tagged enum): the variant
    /// (its tag value, `click`) whose shape this failure is of. `None` for a failure every variant shares, and
    /// everywhere else.
    pub variant: Option<String>,
}

impl fmt::Display for FieldFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = if self.path.is_empty() { "(document)" } else { &self.path };
        write!(f, "{path}: {}", self.rule)?;
        match (&self.expected, &self.actual) {
            (Some(e), Some(a)) => write!(f, " (expected {e}, found {a})"),
            (Some(e), None) => write!(f, " (expected {e})"),
            (None, Some(a)) => write!(f, " (found {a})"),
            (None, None) => Ok(()),
        }
    }
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: document failed validation", self.model)?;
        // A variant's failures go together, after a label: `as click: …, …; as purchase: …`.
        let mut group: Option<&str> = None;
        for (i, failure) in self.failures.iter().enumerate() {
            let variant = failure.variant.as_deref();
            let same_group = i > 0 && variant.is_some() && variant == group;
            f.write_str(if i == 0 {
                ": "
            } else if same_group {
                ", "
            } else {
                "; "
            })?;
            if let (Some(v), false) = (variant, same_group) {
                write!(f, "as {v}: ")?;
            }
            group = variant;
            write!(f, "{failure}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ValidationError {}

impl ValidationError {
    /// Parses the server's `errInfo` (defensively: its shape is documented as human-oriented and may change).
    ///
    /// A counter out of step fails an `$expr` clause, and the server says which clause but not why. Each clause of
    /// odm's validators checks one counted array (see [`crate::Model::validator`]), so the failure is reported on that
    /// counter, by the pair the clause compares: `Company.depts[].member_count` must equal the length of
    /// `Company.depts[].members`. (The clause checks every element, so no index is known.)
    pub fn parse(model: &'static str, meta: Option<&'static TypeMeta>, details: Option<Document>) -> Self {
        let mut failures = Vec::new();
        if let Some(info) = details.as_ref().and_then(|d| d.get_document("details").ok()) {
            walk(info, &mut Vec::new(), meta, &mut failures);
        }
        for failure in &mut failures {
            failure.path = rust_name(meta, &failure.stored_path, false).unwrap_or_else(|| failure.stored_path.clone());
        }
        ValidationError { model, failures, details }
    }
}

fn join(path: &[String]) -> String {
    path.join(".")
}

fn bson_text(b: &Bson) -> String {
    match b {
        Bson::String(s) => s.clone(),
        Bson::Array(a) => a.iter().map(bson_text).collect::<Vec<_>>().join(" or "),
        other => other.to_string(),
    }
}

fn push(out: &mut Vec<FieldFailure>, path: &[String], rule: &str, expected: Option<String>, actual: Option<String>) {
    let failure = FieldFailure {
        path: String::new(),
        stored_path: join(path),
        rule: rule.to_owned(),
        expected,
        actual,
        variant: None,
    };
    out.push(failure);
}

/// Adds `failure` unless the same failure (of the same variant) is listed already: nested schemas and variants
/// often report one cause twice.
fn push_once(out: &mut Vec<FieldFailure>, failure: FieldFailure) {
    if !out.contains(&failure) {
        out.push(failure);
    }
}

/// Whether `f` says only that a `oneOf` branch is another variant: its tag (one level below the branch, at `depth`)
/// is not the branch's value.
fn tag_miss(f: &FieldFailure, depth: usize) -> bool {
    f.rule == "enum" && f.stored_path.split('.').filter(|s| !s.is_empty()).count() == depth
}

/// A document matching no branch of a `oneOf` (no variant's tag, or none at all): what every branch says is listed
/// once, the rest under the variant it belongs to, each failure once.
fn variants_apart(
    branches: &[(usize, Vec<FieldFailure>)],
    path: &[String],
    meta: Option<&'static TypeMeta>,
    out: &mut Vec<FieldFailure>,
) {
    let depth = path.len() + 1;
    let in_every = |f: &FieldFailure| branches.len() > 1 && branches.iter().all(|(_, b)| b.contains(f));
    // Shared failures first, unlabelled, so each variant's group holds what sets it apart.
    for f in branches.first().map(|(_, b)| b.as_slice()).unwrap_or_default() {
        if in_every(f) {
            push_once(out, f.clone());
        }
    }
    for (index, failures) in branches {
        // The variant's name: the value its tag must hold, from its tag miss, or from the model's variants.
        let from_tag = failures.iter().find(|f| tag_miss(f, depth)).and_then(|f| f.expected.clone());
        let from_meta = || Some(meta?.variants.get(*index)?.tag?.1.to_owned()).filter(|_| path.is_empty());
        let label = from_tag.or_else(from_meta).unwrap_or_else(|| format!("variant {}", index + 1));
        for f in failures.iter().filter(|f| !in_every(f)) {
            // A wrong tag is said once by the tag's own `enum` (every variant's value), not once per variant.
            let said = |g: &FieldFailure| g.rule == "enum" && g.stored_path == f.stored_path && g.variant.is_none();
            if tag_miss(f, depth) && out.iter().any(said) {
                continue;
            }
            push_once(out, FieldFailure { variant: (branches.len() > 1).then(|| label.clone()), ..f.clone() });
        }
    }
}

/// The documents in the array `key` of `node` (none when absent).
fn documents<'a>(node: &'a Document, key: &str) -> Vec<&'a Document> {
    node.get_array(key).map(|a| a.iter().filter_map(Bson::as_document).collect()).unwrap_or_default()
}

/// Walks one node of `errInfo.details` (an operator report) at stored `path`; `meta` names counted arrays.
fn walk(node: &Document, path: &mut Vec<String>, meta: Option<&'static TypeMeta>, out: &mut Vec<FieldFailure>) {
    let op = node.get_str("operatorName").unwrap_or("");
    let each = |key: &str| documents(node, key);
    match op {
        "$jsonSchema" | "$and" | "allOf" | "anyOf" | "oneOf" => {
            let before = out.len();
            for d in each("schemaRulesNotSatisfied") {
                walk(d, path, meta, out);
            }
            for clause in each("clausesNotSatisfied") {
                if let Ok(d) = clause.get_document("details") {
                    walk(d, path, meta, out);
                }
            }
            // Tagged enums: every variant reports; keep the variants whose tag matched (no `enum` failure one level
            // down), since the others only say "wrong variant".
            let branches: Vec<(usize, Vec<FieldFailure>)> = each("schemasNotSatisfied")
                .into_iter()
                .enumerate()
                .map(|(i, d)| {
                    let mut found = Vec::new();
                    for r in documents(d, "details") {
                        walk(r, path, meta, &mut found);
                    }
                    (d.get_i32("index").map_or(i, |i| i as usize), found)
                })
                .collect();
            let depth = path.len() + 1;
            let matching: Vec<(usize, Vec<FieldFailure>)> =
                branches.iter().filter(|(_, b)| !b.iter().any(|f| tag_miss(f, depth))).cloned().collect();
            match matching.as_slice() {
                [(_, one)] => one.iter().for_each(|f| push_once(out, f.clone())),
                // No tag, or several variants without one: each is a candidate, told apart.
                [_, _, ..] => variants_apart(&matching, path, meta, out),
                [] => variants_apart(&branches, path, meta, out),
            }
            if out.len() == before && op != "$jsonSchema" && op != "$and" {
                push(out, path, op, None, node.get_str("reason").ok().map(str::to_owned));
            }
        }
        "properties" => {
            for p in each("propertiesNotSatisfied") {
                let Ok(name) = p.get_str("propertyName") else { continue };
                path.push(name.to_owned());
                for d in documents(p, "details") {
                    walk(d, path, meta, out);
                }
                path.pop();
            }
        }
        "required" => {
            for missing in node.get_array("missingProperties").map(|a| a.to_vec()).unwrap_or_default() {
                if let Bson::String(k) = missing {
                    path.push(k);
                    push(out, path, "required", Some("present".into()), Some("missing".into()));
                    path.pop();
                }
            }
        }
        // A map value: each failing entry names its key.
        "patternProperties" => {
            let before = out.len();
            for entry in each("details") {
                let Ok(key) = entry.get_str("propertyName") else { continue };
                path.push(key.to_owned());
                for d in documents(entry, "details") {
                    walk(d, path, meta, out);
                }
                path.pop();
            }
            if out.len() == before {
                push(out, path, op, None, node.get_str("reason").ok().map(str::to_owned));
            }
        }
        "additionalProperties" if node.contains_key("failingProperty") => {
            let key = node.get_str("failingProperty").unwrap_or("?").to_owned();
            path.push(key);
            let before = out.len();
            for d in each("details") {
                walk(d, path, meta, out);
            }
            if out.len() == before {
                push(out, path, "additionalProperties", None, node.get_str("reason").ok().map(str::to_owned));
            }
            path.pop();
        }
        "additionalProperties" => {
            for extra in node.get_array("additionalProperties").map(|a| a.to_vec()).unwrap_or_default() {
                if let Bson::String(k) = extra {
                    // A map refuses only keys MongoDB cannot address; a closed document refuses every unknown key.
                    let (expected, actual) = match crate::keys::defect(&k) {
                        Some(why) => (format!("a key that can be stored as data ({why})"), format!("key `{k}`")),
                        None => ("no such key (closed document)".to_owned(), "extra key".to_owned()),
                    };
                    path.push(k);
                    push(out, path, "additionalProperties", Some(expected), Some(actual));
                    path.pop();
                }
            }
        }
        "bsonType" | "type" => {
            let expected = node.get_document("specifiedAs").ok().and_then(|s| s.get(op)).map(bson_text);
            let actual = node.get_str("consideredType").ok().map(str::to_owned);
            push(out, path, op, expected, actual);
        }
        "items" => {
            let before = out.len();
            if let Ok(i) = node.get_i32("itemIndex") {
                path.push(i.to_string());
                for d in each("details") {
                    walk(d, path, meta, out);
                }
                path.pop();
            } else {
                for d in each("details") {
                    walk(d, path, meta, out);
                }
            }
            if out.len() == before {
                push(out, path, "items", None, node.get_str("reason").ok().map(str::to_owned));
            }
        }
        "maxItems" | "minItems" | "maxLength" | "minLength" | "minimum" | "maximum" | "enum" | "maxProperties"
        | "minProperties" | "pattern" | "uniqueItems" => {
            let expected = node.get_document("specifiedAs").ok().and_then(|s| s.get(op)).map(bson_text);
            let actual = match (op, node.get_str("consideredValue")) {
                // The length is what the rule compares (in code points, as the server counts), and the string may be
                // long or private.
                ("maxLength" | "minLength", Ok(s)) => Some(format!("length {}", s.chars().count())),
                _ => node.get("numberOfItems").or_else(|| node.get("consideredValue")).map(bson_text),
            };
            push(out, path, op, expected, actual);
        }
        "$expr" => {
            let check = node.get_document("specifiedAs").ok().and_then(|s| s.get("$expr"));
            let pairs = check.map(crate::schema::counter_pairs).unwrap_or_default();
            let rust = |stored: &str| rust_name(meta, stored, false).unwrap_or_else(|| stored.to_owned());
            match pairs.as_slice() {
                [(array, counter)] => out.push(FieldFailure {
                    path: String::new(),
                    stored_path: counter.clone(),
                    rule: "$expr".to_owned(),
                    expected: Some(format!("the length of {}", rust(array))),
                    actual: Some("a different value".to_owned()),
                    variant: None,
                }),
                // A validator written by an earlier version checks every pair in one expression.
                [_, ..] => {
                    let each: Vec<String> =
                        pairs.iter().map(|(a, c)| format!("{} == the length of {}", rust(c), rust(a))).collect();
                    push(out, path, "$expr", Some(each.join(", ")), Some("a counter out of step".into()));
                }
                [] => push(
                    out,
                    path,
                    "$expr",
                    Some("every array counter equal to its array's size".into()),
                    Some("a counter out of step".into()),
                ),
            }
        }
        "" => {}
        other => {
            let before = out.len();
            for d in each("details") {
                walk(d, path, meta, out);
            }
            if out.len() == before {
                push(out, path, other, None, node.get_str("reason").ok().map(str::to_owned));
            }
        }
    }
}

/// An integer of a command reply (`n`, `nModified`, an error's `index` or `code`) the way servers send them: `int`,
/// `long`, or a `double` from some.
pub(crate) fn reply_int(reply: &Document, key: &str) -> Option<i64> {
    match reply.get(key)? {
        Bson::Int32(n) => Some(i64::from(*n)),
        Bson::Int64(n) => Some(*n),
        Bson::Double(n) => Some(*n as i64),
        _ => None,
    }
}

/// One entry of a write command's `writeErrors`, as model `M`'s error: a validation failure (121) named by Rust
/// fields, anything else [`Error::Write`].
pub(crate) fn write_error<M: crate::Model>(entry: &Document) -> Error {
    let code = reply_int(entry, "code").unwrap_or(0) as i32;
    if code == 121 {
        let info = entry.get_document("errInfo").ok().cloned();
        return Error::Validation(Box::new(ValidationError::parse(model_name::<M>(), M::type_meta(), info)));
    }
    Error::Write { model: model_name::<M>(), code, message: entry.get_str("errmsg").unwrap_or_default().to_owned() }
}
