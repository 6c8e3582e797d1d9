//! A driver error in words (`Error::Driver`): the server's code, code name and message, the error's labels and what
//! caused it. Compiled with the feature `driver` only, as the variant is.
//!
//! The driver's own `Display` appends the server's whole reply as raw BSON bytes (`RawDocumentBuf { data:
//! "f4000000…" }`), which tells a reader nothing the code and message do not; odm's errors show this instead. The
//! reply itself stays on the driver error ([`mongodb::error::Error::server_response`]) for programs.

use mongodb::error::{ErrorKind, WriteFailure};
use std::fmt;

/// Shows a driver error without its raw reply (see the module docs).
pub(crate) struct Readable<'a>(pub(crate) &'a mongodb::error::Error);

impl fmt::Display for Readable<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let e = self.0;
        match e.kind.as_ref() {
            ErrorKind::Command(c) => {
                write!(f, "the server refused the command: {}", Code(c.code, Some(&c.code_name), &c.message))?
            }
            ErrorKind::Write(WriteFailure::WriteError(w)) => {
                write!(f, "the server refused the write: {}", Code(w.code, w.code_name.as_deref(), &w.message))?
            }
            ErrorKind::Write(WriteFailure::WriteConcernError(w)) => write!(
                f,
                "the server could not confirm the write concern: {}",
                Code(w.code, Some(&w.code_name), &w.message)
            )?,
            ErrorKind::InsertMany(im) => {
                f.write_str("insert_many failed")?;
                for w in im.write_errors.iter().flatten() {
                    write!(f, "; document {}: {}", w.index, Code(w.code, w.code_name.as_deref(), &w.message))?;
                }
                if let Some(w) = &im.write_concern_error {
                    write!(f, "; write concern: {}", Code(w.code, Some(&w.code_name), &w.message))?;
                }
            }
            ErrorKind::BulkWrite(bw) => {
                f.write_str("bulk write failed")?;
                let mut writes: Vec<_> = bw.write_errors.iter().collect();
                writes.sort_by_key(|(index, _)| **index);
                for (index, w) in writes {
                    write!(f, "; operation {index}: {}", Code(w.code, w.code_name.as_deref(), &w.message))?;
                }
                for w in &bw.write_concern_errors {
                    write!(f, "; write concern: {}", Code(w.code, Some(&w.code_name), &w.message))?;
                }
            }
            // The driver's message describes the topology it saw; what to check comes first.
            ErrorKind::ServerSelection { message, .. } => write!(
                f,
                "no server could be reached for this operation (check that the server runs, and the connection \
                 string's hosts, replica set name and TLS settings): {message}"
            )?,
            // The other kinds' own text is a message, without the reply.
            other => write!(f, "{other}")?,
        }
        let mut labels: Vec<&str> = e.labels().iter().map(String::as_str).collect();
        if !labels.is_empty() {
            labels.sort_unstable();
            write!(f, " (labels: {})", labels.join(", "))?;
        }
        // The driver keeps its cause boxed: the source may be the box or the error in it.
        let cause = std::error::Error::source(e).and_then(|s| {
            s.downcast_ref::<mongodb::error::Error>()
                .or_else(|| s.downcast_ref::<Box<mongodb::error::Error>>().map(|b| b.as_ref()))
        });
        if let Some(cause) = cause {
            write!(f, "; caused by: {}", Readable(cause))?;
        }
        Ok(())
    }
}

/// `code 2 (BadValue): message`, the code name left out when the server sent none.
struct Code<'a>(i32, Option<&'a str>, &'a str);

impl fmt::Display for Code<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Code(code, name, message) = self;
        match name.filter(|n| !n.is_empty()) {
            Some(name) => write!(f, "code {code} ({name}): {message}"),
            None => write!(f, "code {code}: {message}"),
        }
    }
}

/// The server's code and code name in a driver error, when the server answered with one (a command refused, the
/// first write error of a write, an insert or a bulk write, or a write concern error). A write error may come
/// without its name (the reply's `codeName` is optional there): the name is then MongoDB's for that code, when it
/// is one an ODM meets ([`known_name`]).
pub(crate) fn code_of(e: &mongodb::error::Error) -> Option<(i32, Option<&str>)> {
    let (code, name) = match e.kind.as_ref() {
        ErrorKind::Command(c) => (c.code, Some(c.code_name.as_str())),
        ErrorKind::Write(WriteFailure::WriteError(w)) => (w.code, w.code_name.as_deref()),
        ErrorKind::Write(WriteFailure::WriteConcernError(w)) => (w.code, Some(w.code_name.as_str())),
        ErrorKind::InsertMany(im) => match im.write_errors.iter().flatten().next() {
            Some(w) => (w.code, w.code_name.as_deref()),
            None => im.write_concern_error.as_ref().map(|w| (w.code, Some(w.code_name.as_str())))?,
        },
        ErrorKind::BulkWrite(bw) => match bw.write_errors.iter().min_by_key(|(index, _)| **index) {
            Some((_, w)) => (w.code, w.code_name.as_deref()),
            None => bw.write_concern_errors.first().map(|w| (w.code, Some(w.code_name.as_str())))?,
        },
        _ => return None,
    };
    Some((code, name.filter(|n| !n.is_empty()).or_else(|| known_name(code))))
}

/// The name MongoDB gives `code` (`src/mongo/base/error_codes.yml`), for the codes an ODM meets.
pub(crate) fn known_name(code: i32) -> Option<&'static str> {
    Some(match code {
        2 => "BadValue",
        9 => "FailedToParse",
        11000 => "DuplicateKey",
        13 => "Unauthorized",
        20 => "IllegalOperation",
        26 => "NamespaceNotFound",
        27 => "IndexNotFound",
        28 => "PathNotViable",
        40 => "ConflictingUpdateOperators",
        48 => "NamespaceExists",
        50 => "MaxTimeMSExpired",
        52 => "DollarPrefixedFieldName",
        56 => "EmptyFieldName",
        57 => "DottedFieldName",
        61 => "ShardKeyNotFound",
        64 => "WriteConcernTimeout",
        66 => "ImmutableField",
        67 => "CannotCreateIndex",
        68 => "IndexAlreadyExists",
        72 => "InvalidOptions",
        73 => "InvalidNamespace",
        85 => "IndexOptionsConflict",
        86 => "IndexKeySpecsConflict",
        112 => "WriteConflict",
        116 => "DocTooLargeForCapped",
        121 => "DocumentValidationFailure",
        171 => "CannotIndexParallelArrays",
        197 => "InvalidIndexSpecificationOption",
        251 => "NoSuchTransaction",
        10003 => "CannotGrowDocumentInCappedNamespace",
        10334 => "BSONObjectTooLarge",
        _ => return None,
    })
}
