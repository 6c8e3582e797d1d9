//! An error as the operator reads it: the library names the builder methods a program calls (`drop_existing()`),
//! the command line the flags the operator typed (`--drop-existing`); an unreachable server is said in one sentence
//! (what to check), the driver's description of the topology kept apart as detail.

use crate::base::error::{Error, Waited};
use mongodb::error::ErrorKind;
use std::time::Duration;

/// The library's names for what the command line sets by a flag, and the flag. Longer names first, so that no
/// replacement cuts into another.
const FLAGS: &[(&str, &str)] = &[
    ("`drop_existing()`", "`--drop-existing`"),
    ("`bypass_validation()`", "`--bypass-validation`"),
    ("`into_db(…)`", "`--into-db <name>`"),
    ("`into_db`", "`--into-db`"),
    ("`database(name)`", "`--db <name>`"),
    ("`database(…)`", "`--db <name>`"),
    ("`model::<M>()`", "`--model <name>`"),
    ("`batch_size(…)`", "`--batch-size`"),
    ("`gzip()`", "`--gzip`"),
    ("`timeout(…)`", "`--timeout`"),
];

/// What the operator reads of `error`: the message, and detail for `--json`'s `detail` field (the driver's
/// description of the servers it tried, for an unreachable one). `timeout`: `--timeout`, when given.
pub(super) fn of(error: &Error, timeout: Option<Duration>) -> (String, Option<String>) {
    if let Error::Driver(e) = error {
        if let ErrorKind::ServerSelection { message, .. } = &*e.kind {
            let waited = match timeout {
                Some(t) => format!("gave up after {}s (`--timeout`)", t.as_secs_f64()),
                None => "`--timeout SECONDS` sets how long to wait".to_owned(),
            };
            let text = format!(
                "no server could be reached for this operation (check that the server runs, and the connection \
                 string's hosts, replica set name and TLS settings: `--uri` or MONGODB_URI); {waited}"
            );
            return (text, Some(message.clone()));
        }
    }
    if let Error::Timeout { waited: Waited::Plan | Waited::Sync, .. } = error {
        return (format!("{error} (`--timeout SECONDS` sets the limit)"), None);
    }
    (flags(&error.to_string()), None)
}

/// `text` with the library's builder names replaced by the flags that set them.
pub(super) fn flags(text: &str) -> String {
    FLAGS.iter().fold(text.to_owned(), |text, (library, flag)| text.replace(library, flag))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::error::BackupError;

    /// The errors a `restore`, a `dump` or a sync reaches the operator with name the flags, not the methods.
    #[test]
    fn errors_name_the_flags() {
        let errors = [
            BackupError::NotEmpty { namespace: "copy.order_header".to_owned() },
            BackupError::Unconfirmed { namespace: "copy.order_header".to_owned(), message: "timeout".to_owned() },
            BackupError::Refused {
                namespace: "copy.order_header".to_owned(),
                id: bson::Bson::Int32(8),
                restored: 0,
                code: 121,
                message: "Document failed validation".to_owned(),
                validation: Some(Box::new(crate::base::error::ValidationError::parse("", None, None))),
            },
        ];
        for error in errors {
            let (text, detail) = of(&Error::Backup(Box::new(error)), None);
            assert!(detail.is_none());
            assert!(!text.contains("()`") && !text.contains("`into_db`"), "{text}");
        }
        let not_empty = Error::Backup(Box::new(BackupError::NotEmpty { namespace: "copy.x".to_owned() }));
        let (text, _) = of(&not_empty, None);
        assert!(text.contains("(`--into-db`)") && text.ends_with("with `--drop-existing`"), "{text}");
        let timeout = Error::Timeout { waited: Waited::Sync, limit: Duration::from_secs(5) };
        assert!(of(&timeout, None).0.ends_with("(`--timeout SECONDS` sets the limit)"), "{}", of(&timeout, None).0);
        assert_eq!(
            flags("`into_db` takes one: restore them one at a time with `database(…)`"),
            "`--into-db` takes one: restore them one at a time with `--db <name>`"
        );
    }
}
