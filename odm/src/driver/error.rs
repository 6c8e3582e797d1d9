//! Mapping driver errors: validation failures (121) and too-large results out of a driver error, the server's code,
//! labels and message, and the entries of a write command's `writeErrors`.

use crate::base::error::validation::ValidationError;
use crate::base::error::Error;
use crate::base::model::model_name;

use crate::base::meta::TypeMeta;
use bson::{Bson, Document};

/// Server codes for a write whose resulting document would exceed [`MAX_DOCUMENT_SIZE`]: 10334 `BSONObjectTooLarge`
/// (updates, in current servers), 17419 (updates, in earlier ones), 17420 (upserts).
const RESULT_TOO_LARGE: [i32; 3] = [10334, 17419, 17420];

impl From<mongodb::error::Error> for Error {
    fn from(e: mongodb::error::Error) -> Self {
        Error::Driver(e)
    }
}

impl Error {
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
            Error::RepairStopped(r) => r.cause.code(),
            _ => None,
        }
    }

    /// Interprets a driver error from a write to `M`'s collection (made with the raw driver, say): validation
    /// failures become a field-level [`ValidationError`], anything else stays a driver error.
    pub fn from_write<M: crate::base::model::Model>(e: mongodb::error::Error) -> Self {
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
pub(crate) fn write_error<M: crate::base::model::Model>(entry: &Document) -> Error {
    let code = reply_int(entry, "code").unwrap_or(0) as i32;
    if code == 121 {
        let info = entry.get_document("errInfo").ok().cloned();
        return Error::Validation(Box::new(ValidationError::parse(model_name::<M>(), M::type_meta(), info)));
    }
    Error::Write { model: model_name::<M>(), code, message: entry.get_str("errmsg").unwrap_or_default().to_owned() }
}
