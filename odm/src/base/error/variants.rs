//! The `Error` enum, its text (`Display`, and `Debug` as that text), its source, and the bulk failure types it holds
//! and the undecodable change event and stopped repair it holds (each mutually recursive with it: a failed bulk
//! operation, an undecodable change and a stopped repair carry their own `Error`).
//!
//! One file, over the usual length: the types here refer to one another both ways, and split into files they
//! would import one another in a circle.

use super::backup::BackupError;
use super::decode::DecodeError;
use super::invalid::Invalid;
use super::payload::{DuplicateInSetError, NotMigratedError, ScatterGatherError, VersionError};
use super::validation::ValidationError;
use super::waited::{Feature, Waited};
use crate::base::error::BulkResult;

use crate::base::error::repair_report::RepairReport;
use bson::Bson;
#[cfg(feature = "driver")]
use bson::{Document, RawDocumentBuf};
#[cfg(feature = "driver")]
use mongodb::change_stream::event::ResumeToken;
use std::fmt;

/// The result type of odm operations.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// The largest document MongoDB stores (`BSONObjMaxUserSize`, 16 MiB).
pub const MAX_DOCUMENT_SIZE: usize = crate::base::size::DOCUMENT_LIMIT as usize;

/// The largest update statement MongoDB takes: a filter with its update or replacement (and array filters) may
/// exceed [`MAX_DOCUMENT_SIZE`] by 16 KiB (`BSONObjMaxInternalSize`), room for the filter beside a full replacement.
pub const MAX_STATEMENT_SIZE: usize = MAX_DOCUMENT_SIZE + 16 * 1024;

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
    FilterNotMigrated(Box<crate::base::error::FilterNotMigratedError>),
    /// A single-document operation on a sharded model whose filter does not hold the shard key (or `_id`) to one
    /// value, so it would be sent to every shard; refused before sending by the model's
    /// [`Scatter`](crate::model::Scatter) policy (see [`crate::shard`]).
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
    /// A filter, sort, projection, update or pipeline was refused before sending: two operators on one path, a
    /// value that does not encode, a bad map key or array filter identifier, an empty update, a guard on an upsert,
    /// a pipeline stage that cannot be written. The cause says which, with the paths it concerns.
    InvalidOperation {
        /// The model's Rust type name.
        model: &'static str,
        /// What is wrong.
        cause: Invalid,
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
    /// A pull of one element from a counted set (`#[odm(counter = "…", unique_items)]`, see
    /// [`Update::pull`](crate::Update::pull)) left a document alone because its set holds that element more than
    /// once: the same keys and values in two key orders, which the server's `uniqueItems` lets through (rule
    /// [`array-unique`](crate::rules#array-unique)). Removing every copy would leave the counter wrong, so nothing
    /// was written to it (an `update_many` changed the other documents it matched, and says how many). Found by one
    /// read made after such a pull matched nothing, and after every such `update_many` (in the same session or
    /// transaction). Repair the document (the schema checker lists every such set), then pull again.
    DuplicateInSet(Box<DuplicateInSetError>),
    /// A guarded write found no document matching its filter: the document was deleted, or never inserted. Nothing
    /// was written (and nothing was inserted).
    NotFound {
        /// The model's Rust type name.
        model: &'static str,
        /// The `_id` of the value the write was based on, when it has one.
        id: Option<Box<Bson>>,
    },
    /// A sync in verify mode found the database different from the models, or a report's pending drift was
    /// turned into an error ([`crate::sync::SyncReport::require_in_sync`]); the plan says how.
    Drift(Box<crate::base::plan::Plan>),
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
    #[cfg(feature = "driver")]
    #[cfg_attr(docsrs, doc(cfg(feature = "driver")))]
    UndecodableChange(Box<UndecodableChange>),
    /// A model given to a sync, a dump or a restore names no database (`#[odm(db = "…")]`), and the call has no
    /// default database.
    NoDatabase {
        /// The model's Rust type name.
        model: &'static str,
    },
    /// Something odm waits for did not finish within its bound (see [`Waited`]).
    Timeout {
        /// What was waited for.
        waited: Waited,
        /// How long odm waited.
        limit: std::time::Duration,
    },
    /// The server lacks a feature the operation needs (transactions on a standalone server).
    Unsupported {
        /// The feature.
        feature: Feature,
        /// What the server (or the driver, for the server it found) said when refusing.
        said: String,
    },
    /// A migration of a model that is not versioned: it has no older documents to migrate (see
    /// [`crate::version`]).
    NotVersioned {
        /// The model's Rust type name.
        model: &'static str,
    },
    /// A stored document without `_id` where odm needs one to write it back (a migration).
    MissingId {
        /// The model's Rust type name.
        model: &'static str,
    },
    /// A change stream event that should carry the document (an insert or replacement) came without it.
    ChangeWithoutDocument {
        /// The model's Rust type name.
        model: &'static str,
        /// The event's operation (`insert`, `replace`).
        operation: String,
    },
    /// A model without a field table (a hand-written [`crate::Model`]) where odm needs its fields by name.
    NoFieldTable {
        /// The model's collection name (a model without a field table has no Rust name odm knows).
        model: &'static str,
    },
    /// A declared query (`#[odm(query(…))]`) names a field path the model does not have.
    UnknownQueryPath {
        /// The model's Rust type name.
        model: &'static str,
        /// The path as declared (`items.name`).
        path: String,
    },
    /// A dump or a restore stopped (see `odm::backup`): a file exists or cannot be written, a dump file is cut short,
    /// a target collection holds documents, a document was refused.
    Backup(Box<BackupError>),
    /// A [repair of extended references](crate::reference::Repair) stopped on an error: the error, with the report of
    /// what it did before (its `last` resumes the repair).
    RepairStopped(Box<RepairStopped>),
    /// Any other driver or server error. Shown by the server's code, code name and message; the driver error (with
    /// the server's whole reply) is here, for a program to match on. It is not the error's
    /// [`source`](std::error::Error::source): reporters that print the chain of sources (`anyhow`, `eyre`) would
    /// print the driver's text, which carries the reply's bytes.
    #[cfg(feature = "driver")]
    #[cfg_attr(docsrs, doc(cfg(feature = "driver")))]
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
            Error::InvalidOperation { model, cause } => write!(f, "{model}: {cause}; nothing was sent"),
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
            Error::DuplicateInSet(d) => d.fmt(f),
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
            #[cfg(feature = "driver")]
            Error::UndecodableChange(c) => c.fmt(f),
            Error::NoDatabase { model } => write!(
                f,
                "model `{model}` names no database: add `#[odm(db = \"...\")]` or give one to the call \
                 (`SchemaSync::database`, `Dump::database`, `Restore::database`)"
            ),
            Error::Timeout { waited, limit } => waited.fmt_bound(f, *limit),
            Error::Unsupported { feature: Feature::Transactions, said } => write!(
                f,
                "this server cannot run transactions: they need a replica set or a sharded cluster (a standalone \
                 mongod refuses them; start it as a one-member replica set with `--replSet`): {said}"
            ),
            Error::NotVersioned { model } => write!(
                f,
                "{model} is not a versioned model, so it has no older documents to migrate; declare \
                 `#[odm(version = N, older(…))]` with an `odm::Version<N>` field (see `odm::version`)"
            ),
            Error::MissingId { model } => write!(f, "{model}: a stored document without `_id`"),
            Error::ChangeWithoutDocument { model, operation } => {
                write!(f, "{model}: a change stream `{operation}` event came without its document")
            }
            Error::NoFieldTable { model } => {
                write!(f, "`{model}` has no field table (derive `Model`) to name its fields with")
            }
            Error::UnknownQueryPath { model, path } => {
                write!(f, "`{model}`: the declared query names `{path}`, which the model does not have")
            }
            Error::Backup(b) => b.fmt(f),
            Error::RepairStopped(r) => r.fmt(f),
            #[cfg(feature = "driver")]
            Error::Driver(e) => super::driver::Readable(e).fmt(f),
        }
    }
}

impl From<BackupError> for Error {
    fn from(e: BackupError) -> Self {
        Error::Backup(Box::new(e))
    }
}

/// Why a repair stopped ([`Error::RepairStopped`](super::Error::RepairStopped)), and what it had done by then.
#[derive(Debug)]
#[non_exhaustive]
pub struct RepairStopped {
    /// The Rust type name of the model holding the references.
    pub model: &'static str,
    /// What the repair found and changed before it stopped; its [`RepairReport::last`] is the last holder whose
    /// references were all handled, for [`Repair::after`](crate::reference::Repair::after).
    pub report: RepairReport,
    /// The error that stopped it.
    pub cause: Error,
}

impl fmt::Display for RepairStopped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = &self.report;
        write!(
            f,
            "the repair of `{}`'s references stopped after {} holder(s) ({} copies repaired",
            self.model, r.examined, r.repaired
        )?;
        if !r.unfixable.is_empty() {
            write!(f, ", {} refused by the validator", r.unfixable.len())?;
        }
        match &r.last {
            Some(last) => write!(f, "); resume with `Repair::after({last})`: {}", self.cause),
            None => write!(f, "); run it again from the start: {}", self.cause),
        }
    }
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

/// A change stream event whose document does not decode as the model ([`Error::UndecodableChange`]): what a
/// consumer needs to record it and go on (see [`crate::watch`]).
#[cfg(feature = "driver")]
#[cfg_attr(docsrs, doc(cfg(feature = "driver")))]
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

#[cfg(feature = "driver")]
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
#[cfg(feature = "driver")]
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
/// Only the change stream shows raw documents.
#[cfg(feature = "driver")]
pub(crate) struct Shown<'a>(pub(crate) &'a RawDocumentBuf);

#[cfg(feature = "driver")]
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
            Error::InvalidOperation { cause, .. } => Some(cause),
            Error::Decode(d) => Some(&d.source),
            #[cfg(feature = "driver")]
            Error::UndecodableChange(c) => Some(c.error.as_ref()),
            Error::Aborted(reason) => Some(reason.as_ref()),
            Error::Backup(b) => std::error::Error::source(b.as_ref()),
            Error::RepairStopped(r) => Some(&r.cause),
            _ => None,
        }
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

    /// The Rust type name of the model the error concerns, when it concerns one (a driver error, a timeout or an
    /// aborted transaction concerns none; [`Error::SharedCollection`] names the first of its two models).
    ///
    /// ```
    /// let e = odm::Error::NotVersioned { model: "Order" };
    /// assert_eq!(e.model(), Some("Order"));
    /// ```
    pub fn model(&self) -> Option<&str> {
        match self {
            Error::Validation(v) => Some(v.model),
            Error::Decode(d) => Some(d.model),
            Error::Version(v) => Some(v.model),
            Error::NotMigrated(n) => Some(n.model),
            Error::FilterNotMigrated(n) => Some(n.model),
            Error::ScatterGather(s) => Some(s.model),
            Error::DuplicateInSet(d) => Some(d.model),
            Error::Bulk(b) => Some(b.model),
            #[cfg(feature = "driver")]
            Error::UndecodableChange(c) => c.error.model(),
            Error::RepairStopped(r) => r.cause.model().or(Some(r.model)),
            Error::SharedCollection { first, .. } => Some(first),
            Error::Backup(b) => match b.cause() {
                BackupError::Refused { validation: Some(v), .. } if !v.model.is_empty() => Some(v.model),
                _ => None,
            },
            Error::Serialize { model, .. }
            | Error::Write { model, .. }
            | Error::DocumentTooLarge { model, .. }
            | Error::UpdateTooLarge { model, .. }
            | Error::ResultTooLarge { model, .. }
            | Error::InvalidKey { model, .. }
            | Error::InvalidOperation { model, .. }
            | Error::Conflict { model, .. }
            | Error::NotFound { model, .. }
            | Error::NoDatabase { model }
            | Error::NotVersioned { model }
            | Error::MissingId { model }
            | Error::ChangeWithoutDocument { model, .. }
            | Error::NoFieldTable { model }
            | Error::UnknownQueryPath { model, .. } => Some(model),
            Error::Drift(_) | Error::Aborted(_) | Error::Timeout { .. } | Error::Unsupported { .. } => None,
            #[cfg(feature = "driver")]
            Error::Driver(_) => None,
        }
    }
}

impl BackupError {
    /// The backup error behind this one: the cause of a [`BackupError::Stopped`] when it is a backup error (a
    /// refused document, a damaged file), else this error.
    pub fn cause(&self) -> &BackupError {
        match self {
            BackupError::Stopped { cause, .. } => match cause.downcast_ref::<Error>() {
                Some(Error::Backup(b)) => b.cause(),
                _ => self,
            },
            other => other,
        }
    }
}
