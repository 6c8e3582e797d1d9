//! The consistency settings an operation is sent with, as text for its span: `write_concern = "majority"`,
//! `read_concern = "majority"`, `read_preference = "secondaryPreferred"`. Only what the command carries (or, for a
//! read preference, what the driver selects the server by) is recorded; a setting odm does not send is left out, and
//! the server's default applies.

use bson::{Bson, Document};
use mongodb::options::{Acknowledgment, ReadConcern, ReadPreference, SelectionCriteria, WriteConcern};

/// The three settings of one operation, each as its span shows it (`None`: not sent).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Concerns {
    pub(crate) write: Option<String>,
    pub(crate) read: Option<String>,
    pub(crate) preference: Option<String>,
}

/// Which of a collection's settings the driver applies to a command of this name: reads take the read concern and
/// the read preference, writes the write concern; anything else (a listing, `explain`, `hello`) none of them. The
/// driver sends the write concern with every `aggregate` (a count's included), not only one that writes with `$out`
/// or `$merge`.
fn applies(command: &str) -> (bool, bool) {
    const READS: [&str; 4] = ["find", "aggregate", "count", "distinct"];
    const WRITES: [&str; 9] =
        ["insert", "update", "delete", "findAndModify", "aggregate", "drop", "create", "createIndexes", "dropIndexes"];
    (READS.contains(&command), WRITES.contains(&command))
}

impl Concerns {
    /// What the driver sends with `command` on `coll` outside a transaction: the collection's own settings (the
    /// model's, or those it inherits from its database and client, such as a URI's `w=majority`).
    pub(crate) fn of_collection<T: Send + Sync>(coll: &mongodb::Collection<T>, command: &str) -> Concerns {
        let (reads, writes) = applies(command);
        Concerns {
            write: coll.write_concern().filter(|_| writes).and_then(write_concern_text),
            read: coll.read_concern().filter(|_| reads).map(read_concern_text),
            preference: coll.selection_criteria().filter(|_| reads).and_then(read_preference_text),
        }
    }

    /// What the driver sends with `command` on database `db` itself (a pipeline starting with `$documents`).
    pub(crate) fn of_database(db: &mongodb::Database, command: &str) -> Concerns {
        let (reads, writes) = applies(command);
        Concerns {
            write: db.write_concern().filter(|_| writes).and_then(write_concern_text),
            read: db.read_concern().filter(|_| reads).map(read_concern_text),
            preference: db.selection_criteria().filter(|_| reads).and_then(read_preference_text),
        }
    }

    /// What a command built as a document carries (`writeConcern`, `readConcern`): the driver adds nothing to a
    /// command run as given, and selects the primary for it.
    pub(crate) fn of_command(command: &Document) -> Concerns {
        Concerns {
            write: command.get_document("writeConcern").ok().and_then(write_concern_document_text),
            read: command.get_document("readConcern").ok().and_then(|r| r.get_str("level").ok()).map(str::to_owned),
            preference: None,
        }
    }

    /// [`Concerns::of_command`] of a command built as raw BSON (only its settings are converted).
    pub(crate) fn of_raw_command(command: &bson::RawDocument) -> Concerns {
        let part = |key: &str| {
            let raw = command.get_document(key).ok()?;
            Document::try_from(raw).ok().map(|d| bson::doc! { key: d })
        };
        let mut settings = Document::new();
        for key in ["writeConcern", "readConcern"] {
            settings.extend(part(key).unwrap_or_default());
        }
        Concerns::of_command(&settings)
    }

    /// Inside a transaction an operation carries no concern of its own: the transaction's apply (recorded on its
    /// `odm.transaction` span and on the commit).
    pub(crate) fn in_transaction(self) -> Concerns {
        Concerns::default()
    }
}

/// `majority`, `1`, a tag name; with `j=true` and `wtimeout=…ms` when set (`None` when nothing is set).
pub(crate) fn write_concern_text(wc: &WriteConcern) -> Option<String> {
    let mut parts = Vec::new();
    match &wc.w {
        Some(Acknowledgment::Nodes(n)) => parts.push(n.to_string()),
        Some(Acknowledgment::Majority) => parts.push("majority".to_owned()),
        Some(Acknowledgment::Custom(tag)) => parts.push(tag.clone()),
        _ => {}
    }
    if let Some(j) = wc.journal {
        parts.push(format!("j={j}"));
    }
    if let Some(t) = wc.w_timeout {
        parts.push(format!("wtimeout={}ms", t.as_millis()));
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// A `writeConcern` document (`{w: "majority", j: true, wtimeout: 5000}`) as [`write_concern_text`] shows it.
fn write_concern_document_text(wc: &Document) -> Option<String> {
    let mut parts = Vec::new();
    match wc.get("w") {
        Some(Bson::String(tag)) => parts.push(tag.clone()),
        Some(Bson::Int32(n)) => parts.push(n.to_string()),
        Some(Bson::Int64(n)) => parts.push(n.to_string()),
        _ => {}
    }
    if let Ok(j) = wc.get_bool("j") {
        parts.push(format!("j={j}"));
    }
    if let Some(t) = wc.get("wtimeout").and_then(|t| t.as_i64().or_else(|| t.as_i32().map(i64::from))) {
        parts.push(format!("wtimeout={t}ms"));
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// The level as the server spells it: `local`, `majority`, `snapshot`, ….
pub(crate) fn read_concern_text(rc: &ReadConcern) -> String {
    use mongodb::options::ReadConcernLevel as Level;
    match &rc.level {
        Level::Local => "local",
        Level::Majority => "majority",
        Level::Linearizable => "linearizable",
        Level::Available => "available",
        Level::Snapshot => "snapshot",
        Level::Custom(level) => level,
        // A level a later driver adds: its debug name, which is the server's in other casing.
        other => return format!("{other:?}").to_lowercase(),
    }
    .to_owned()
}

/// The mode as the server spells it (`primary`, `secondaryPreferred`, …); a predicate has no name (`None`).
pub(crate) fn read_preference_text(sc: &SelectionCriteria) -> Option<String> {
    let SelectionCriteria::ReadPreference(pref) = sc else { return None };
    let mode = match pref {
        ReadPreference::Primary => "primary",
        ReadPreference::PrimaryPreferred { .. } => "primaryPreferred",
        ReadPreference::Secondary { .. } => "secondary",
        ReadPreference::SecondaryPreferred { .. } => "secondaryPreferred",
        ReadPreference::Nearest { .. } => "nearest",
        // A mode a later driver adds.
        #[allow(unreachable_patterns)]
        _ => return None,
    };
    Some(mode.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_write_concern_reads_as_its_parts() {
        let mut wc = WriteConcern::majority();
        assert_eq!(write_concern_text(&wc).as_deref(), Some("majority"));
        wc.journal = Some(true);
        wc.w_timeout = Some(Duration::from_millis(5000));
        assert_eq!(write_concern_text(&wc).as_deref(), Some("majority, j=true, wtimeout=5000ms"));
        assert_eq!(write_concern_text(&WriteConcern::nodes(2)).as_deref(), Some("2"));
        assert_eq!(write_concern_text(&WriteConcern::default()), None);
        let doc = bson::doc! { "w": "majority", "j": true, "wtimeout": 5000_i64 };
        assert_eq!(write_concern_document_text(&doc).as_deref(), Some("majority, j=true, wtimeout=5000ms"));
    }

    #[test]
    fn a_command_carries_what_its_document_holds() {
        let cmd = bson::doc! { "collMod": "c", "writeConcern": { "w": 1 }, "readConcern": { "level": "local" } };
        let c = Concerns::of_command(&cmd);
        assert_eq!((c.write.as_deref(), c.read.as_deref(), c.preference), (Some("1"), Some("local"), None));
        assert_eq!(Concerns::of_command(&bson::doc! { "create": "c" }), Concerns::default());
    }

    #[test]
    fn read_preferences_are_named_as_the_server_names_them() {
        let sc = SelectionCriteria::ReadPreference(ReadPreference::SecondaryPreferred { options: Default::default() });
        assert_eq!(read_preference_text(&sc).as_deref(), Some("secondaryPreferred"));
        assert_eq!(read_concern_text(&ReadConcern::majority()), "majority");
    }
}
