//! Why a dump or a restore (`odm::backup`) stopped: a file that exists already or
//! cannot be written, a dump file that is not what mongodump writes, a target collection that holds documents, a
//! document the target refused.

use super::validation::ValidationError;
use bson::Bson;
use std::fmt;
use std::path::PathBuf;

/// Why a dump or a restore stopped ([`Error::Backup`](super::Error::Backup)). Each says what is wrong and what to do.
#[derive(Debug)]
#[non_exhaustive]
pub enum BackupError {
    /// A file the dump would write exists already: a dump never overwrites one (it may be another dump's).
    Exists {
        /// The file.
        path: PathBuf,
    },
    /// Reading or writing a file failed.
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What was being done (`write`, `read`, `rename`, …).
        action: &'static str,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// A dump file is not what mongodump writes: a document cut short, bytes that are not BSON, metadata that is
    /// not Extended JSON of the expected shape.
    Malformed {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// A documents file (`.bson`, `.bson.gz`) is not whole: cut short (an interrupted copy, a full disk) or
    /// damaged at `offset`. Found by the check of every file before a restore's first write, so nothing was
    /// restored; found while loading (bytes that are not BSON inside a document of the right length), the
    /// collection is left as it was ([`BackupError::Stopped`]).
    Damaged {
        /// The file.
        path: PathBuf,
        /// Where the damage is: the byte offset (in the decompressed stream, for a `.gz` file) of the document
        /// that is cut short or not BSON.
        offset: u64,
        /// Whole documents before it.
        documents: u64,
        /// What is wrong there.
        reason: String,
    },
    /// A dump directory holds one collection's file twice, compressed and not (`x.bson` and `x.bson.gz`): no telling
    /// which is meant.
    Ambiguous {
        /// One of the files.
        first: PathBuf,
        /// The other.
        second: PathBuf,
    },
    /// A restore found nothing to restore, or cannot tell which database of the dump is meant.
    NoSource {
        /// The dump directory (or the database directory in it).
        path: PathBuf,
        /// What is missing.
        reason: String,
    },
    /// The collection a restore would load holds documents: a restore never merges into them.
    NotEmpty {
        /// `<db>.<collection>`.
        namespace: String,
    },
    /// A dump was given no model, no collection and no database: it would write nothing.
    NothingChosen,
    /// A dump selected no collection the server holds: the database is empty or not there (a name mistyped), or
    /// every model and collection asked for is absent. Nothing was written and no directory was made.
    NothingToDump {
        /// What was asked for and is not on the server, as `<db>.<collection>` (a template, such as
        /// `<db>.log_app_event_{yyyymm}`, for a model with no live instance); empty for a whole database that
        /// holds no collection.
        absent: Vec<String>,
        /// Collections of a whole database left out for their type: `(<db>.<collection>, type)`.
        skipped: Vec<(String, String)>,
    },
    /// A collection was dropped (or dropped and created again) while the dump read it: what was read may be partly
    /// gone, so its file was not kept.
    Vanished {
        /// `<db>.<collection>`.
        namespace: String,
    },
    /// The server could not confirm the write concern of restored documents (`writeConcernError`): they are
    /// written, but perhaps not replicated.
    Unconfirmed {
        /// `<db>.<collection>`.
        namespace: String,
        /// The server's message.
        message: String,
    },
    /// A collection neither a dump nor a restore handles (a view, a time-series collection).
    Unsupported {
        /// `<db>.<collection>`.
        namespace: String,
        /// Its type, as `listCollections` or the metadata names it (`view`, `timeseries`).
        kind: String,
    },
    /// The target refused a restored document (its validator, a unique index). Nothing of the collection is
    /// restored: the documents before it were loaded into the restore's temporary collection, which is removed
    /// (the error comes inside [`BackupError::Stopped`]).
    Refused {
        /// `<db>.<collection>`.
        namespace: String,
        /// The refused document's `_id` (`Null` when it has none).
        id: Bson,
        /// Documents of this collection accepted before it (into the temporary collection, removed since).
        restored: u64,
        /// The server's error code (121: the validator refused it; 11000: a duplicate key).
        code: i32,
        /// The server's message.
        message: String,
        /// For a validator's refusal (121): the failing fields, by Rust path when the collection's model was given
        /// to the restore ([`ValidationError::model`] is then its name, else empty), by stored key otherwise.
        validation: Option<Box<ValidationError>>,
    },
    /// A restore stopped while loading a collection: that collection is as it was before the restore (its
    /// documents went to a temporary collection, removed; the target is replaced only once the temporary one is
    /// whole), the collections before it are restored, those after it are not.
    Stopped {
        /// The collection being restored, `<db>.<collection>` of the target.
        namespace: String,
        /// The dump file it was read from.
        file: PathBuf,
        /// The collections restored (whole) before it.
        restored: Vec<String>,
        /// The collections not restored: this one, then those it did not reach.
        not_restored: Vec<String>,
        /// Why it stopped: an [`Error`](crate::Error) (downcast it, or read it with [`BackupError::cause`]): the
        /// server's refusal ([`BackupError::Refused`]), a driver error, a damaged file ([`BackupError::Damaged`]), …
        cause: Box<dyn std::error::Error + Send + Sync>,
    },
}

impl fmt::Display for BackupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BackupError::Exists { path } => write!(
                f,
                "{} already exists: a dump never overwrites a file; choose an empty directory or remove the earlier \
                 dump",
                path.display()
            ),
            BackupError::Io { path, action, source } => {
                write!(f, "cannot {action} {}: {source}", path.display())
            }
            BackupError::Malformed { path, reason } => write!(
                f,
                "{} is not a dump file odm or mongodump writes: {reason}; it may be cut short (an interrupted copy): \
                 take the dump again",
                path.display()
            ),
            BackupError::Damaged { path, offset, documents, reason } => write!(
                f,
                "{} is not whole: at byte {offset}, after {documents} whole document(s), {reason}; it may be cut \
                 short (an interrupted copy, a full disk): nothing was restored from it; take the dump again or copy \
                 the file again",
                path.display()
            ),
            BackupError::Ambiguous { first, second } => write!(
                f,
                "{} and {} are two dumps of one collection, and a restore cannot tell which is meant: remove one, then \
                 restore again",
                first.display(),
                second.display()
            ),
            BackupError::NoSource { path, reason } => write!(f, "nothing to restore from {}: {reason}", path.display()),
            BackupError::NotEmpty { namespace } => write!(
                f,
                "{namespace} already holds documents: a restore never merges into them, so nothing was restored; \
                 restore into another database (`into_db`), or replace the collection with `drop_existing()`"
            ),
            BackupError::NothingChosen => f.write_str(
                "the dump names nothing to write: add `model::<M>()`, `collection(db, name)`, or `database(name)` \
                 alone for every collection of a database",
            ),
            BackupError::NothingToDump { absent, skipped } => {
                f.write_str("the dump selects nothing on the server, so nothing was written")?;
                if absent.is_empty() && skipped.is_empty() {
                    f.write_str(": the database holds no collection")?;
                }
                if !absent.is_empty() {
                    write!(f, "; absent: {}", absent.join(", "))?;
                }
                if !skipped.is_empty() {
                    let shown: Vec<String> = skipped.iter().map(|(ns, kind)| format!("{ns} (a {kind})")).collect();
                    write!(f, "; left out for their type: {}", shown.join(", "))?;
                }
                f.write_str("; check the database name and that the models' collections exist there")
            }
            BackupError::Vanished { namespace } => write!(
                f,
                "{namespace} was dropped or replaced while it was being dumped, so its file was not kept (the \
                 collections dumped before it are complete); dump it again once it is stable"
            ),
            BackupError::Unconfirmed { namespace, message } => write!(
                f,
                "restoring {namespace}: the server could not confirm the write concern ({message}); the documents are \
                 written but may not be replicated: check the replica set, then restore again with `drop_existing()`"
            ),
            BackupError::Unsupported { namespace, kind } => write!(
                f,
                "{namespace} is a {kind}, which odm's dump and restore do not handle; use mongodump and mongorestore \
                 for it"
            ),
            BackupError::Refused { namespace, id, restored, code, message, validation } => {
                write!(f, "restoring {namespace}: the document with _id {id} was refused")?;
                match validation {
                    Some(v) => {
                        f.write_str(" by the collection's validator")?;
                        if !v.model.is_empty() {
                            write!(f, " (model {})", v.model)?;
                        }
                        for (i, failure) in v.failures.iter().enumerate() {
                            f.write_str(if i == 0 { ": " } else { ", " })?;
                            write!(f, "{failure}")?;
                        }
                    }
                    None => write!(f, " by the server (code {code}): {message}")?,
                }
                write!(
                    f,
                    "; nothing of the collection is restored (the {restored} document(s) before it went to a \
                     temporary collection, removed)"
                )?;
                if validation.is_some() {
                    f.write_str(
                        "; fix the document in the dump or restore with `bypass_validation()` to load it as it is",
                    )?;
                }
                Ok(())
            }
            BackupError::Stopped { namespace, file, restored, not_restored, cause } => {
                let list = |l: &[String]| if l.is_empty() { "none".to_owned() } else { l.join(", ") };
                write!(
                    f,
                    "the restore stopped at {namespace} (from {}), which is as it was before the restore: {cause}; \
                     restored: {}; not restored: {}",
                    file.display(),
                    list(restored),
                    list(not_restored)
                )
            }
        }
    }
}

impl std::error::Error for BackupError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BackupError::Stopped { cause, .. } => Some(cause.as_ref()),
            BackupError::Io { source, .. } => Some(source),
            BackupError::Refused { validation: Some(v), .. } => Some(v.as_ref()),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_refusal_says_what_to_do() {
        let duplicate = BackupError::Refused {
            namespace: "copy.order_header".to_owned(),
            id: Bson::Int32(7),
            restored: 3,
            code: 11000,
            message: "E11000 duplicate key error".to_owned(),
            validation: None,
        };
        assert_eq!(
            duplicate.to_string(),
            "restoring copy.order_header: the document with _id 7 was refused by the server (code 11000): E11000 \
             duplicate key error; nothing of the collection is restored (the 3 document(s) before it went to a \
             temporary collection, removed)"
        );
        let info = bson::doc! { "details": { "operatorName": "$jsonSchema", "schemaRulesNotSatisfied": [
            { "operatorName": "required", "specifiedAs": { "required": ["n"] }, "missingProperties": ["n"] }
        ] } };
        let refused = BackupError::Refused {
            namespace: "copy.order_header".to_owned(),
            id: Bson::Int32(8),
            restored: 0,
            code: 121,
            message: "Document failed validation".to_owned(),
            validation: Some(Box::new(ValidationError::parse("", None, Some(info)))),
        };
        let text = refused.to_string();
        assert!(text.starts_with("restoring copy.order_header: the document with _id 8 was refused by the collection's validator: n: required"), "{text}");
        assert!(text.ends_with("restore with `bypass_validation()` to load it as it is"), "{text}");
        let exists = BackupError::Exists { path: PathBuf::from("out/shop/order_header.bson") };
        assert!(exists.to_string().starts_with("out/shop/order_header.bson already exists"));
    }
}
