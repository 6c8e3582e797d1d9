//! What is live on the server: `LiveCollection` for one collection (`collection`, `Collection::live`) or all
//! (`collections`), read with the sync's own reads (`crate::driver::sync::read`) so that it lists what a sync compares
//! with. Users read the docs at `odm::live` (src/live.rs).

use crate::base::error::Result;
use crate::base::index::IndexSpec;
use crate::base::model::{Capped, Model, ValidationAction, ValidationLevel};
use crate::driver::collection::Collection;
use crate::driver::sync::read;
use bson::{doc, Bson, Document};
use mongodb::Database;

/// One live collection (or view) and what it holds besides documents.
#[derive(Clone, Debug, PartialEq)]
pub struct LiveCollection {
    /// Its name.
    pub name: String,
    /// What kind of namespace it is.
    pub kind: LiveKind,
    /// Its options (`listCollections`' `options`).
    pub options: LiveOptions,
    /// Its indexes as `listIndexes` lists them, `_id_` included, in the server's order (none for a view).
    pub indexes: Vec<IndexSpec>,
}

/// The kind of a live namespace (`listCollections`' `type`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LiveKind {
    /// A collection.
    Collection,
    /// A time-series collection.
    TimeSeries,
    /// A view (no indexes, no validator of its own).
    View,
    /// A kind odm does not name, as the server spells it.
    Other(String),
}

/// A live collection's options, the ones odm declares read into odm's types; the whole `options` document as
/// listed is in [`LiveOptions::listed`].
#[derive(Clone, Debug, PartialEq, Default)]
pub struct LiveOptions {
    /// The validator (`$jsonSchema` and any query operators), when it has one.
    pub validator: Option<Document>,
    /// `validationLevel`, when set and one odm knows (the server's default is `strict`).
    pub validation_level: Option<ValidationLevel>,
    /// `validationAction`, when set and one odm knows (the server's default is `error`).
    pub validation_action: Option<ValidationAction>,
    /// Capped size and document count, for a capped collection.
    pub capped: Option<Capped>,
    /// `timeseries` (`timeField`, `metaField`, `granularity`, …), for a time-series collection.
    pub timeseries: Option<Document>,
    /// `expireAfterSeconds` of the collection itself (a time-series or clustered collection's TTL).
    pub expire_after_seconds: Option<i64>,
    /// Every option as the server listed it.
    pub listed: Document,
}

impl<M: Model> Collection<M> {
    /// What is live of this collection: its options and indexes (`None` when it does not exist). See
    /// [`crate::live`].
    pub async fn live(&self) -> Result<Option<LiveCollection>> {
        let db = self.raw().client().database(&self.raw().namespace().db);
        collection(&db, self.name()).await
    }
}

/// The live collection `name` of `db`, with its options and indexes (`None` when it does not exist).
pub async fn collection(db: &Database, name: &str) -> Result<Option<LiveCollection>> {
    let mut listed = read::list_collections(db, &[name]).await?;
    match listed.remove(name) {
        Some(spec) => Ok(Some(with_indexes(db, spec).await?)),
        None => Ok(None),
    }
}

/// Every collection and view of `db`, in name order, with its options and indexes: one `listCollections`, then the
/// indexes of each collection a few at a time (as a sync reads them).
pub async fn collections(db: &Database) -> Result<Vec<LiveCollection>> {
    let listed = read::list_collections_matching(db, doc! {}).await?;
    let mut names: Vec<&str> = listed.keys().map(String::as_str).collect();
    names.sort_unstable();
    let with_indexes: Vec<&str> = names.iter().copied().filter(|n| kind_of(&listed[*n]) != LiveKind::View).collect();
    let mut indexes = read::listed_indexes_of(db, with_indexes).await?;
    Ok(names.iter().map(|n| live_collection(listed[*n].clone(), indexes.remove(n).unwrap_or_default())).collect())
}

async fn with_indexes(db: &Database, spec: Document) -> Result<LiveCollection> {
    let indexes = match kind_of(&spec) {
        LiveKind::View => Vec::new(),
        _ => read::listed_indexes(db, spec.get_str("name").unwrap_or_default()).await?,
    };
    Ok(live_collection(spec, indexes))
}

fn kind_of(spec: &Document) -> LiveKind {
    match spec.get_str("type").unwrap_or("collection") {
        "collection" => LiveKind::Collection,
        "timeseries" => LiveKind::TimeSeries,
        "view" => LiveKind::View,
        other => LiveKind::Other(other.to_owned()),
    }
}

/// A number the server may list as an int, a long or a double.
fn integer(value: &Bson) -> Option<i64> {
    match value {
        Bson::Int32(n) => Some(i64::from(*n)),
        Bson::Int64(n) => Some(*n),
        Bson::Double(d) if d.fract() == 0.0 => Some(*d as i64),
        _ => None,
    }
}

/// A `listCollections` entry and the collection's indexes, as odm's types.
fn live_collection(spec: Document, indexes: Vec<IndexSpec>) -> LiveCollection {
    let kind = kind_of(&spec);
    let listed = spec.get_document("options").cloned().unwrap_or_default();
    let number = |key: &str| listed.get(key).and_then(integer);
    let capped = listed.get_bool("capped").unwrap_or(false).then(|| Capped {
        size: number("size").unwrap_or(0).max(0) as u64,
        max: number("max").filter(|m| *m > 0).map(|m| m as u64),
    });
    let level = listed.get_str("validationLevel").ok();
    let action = listed.get_str("validationAction").ok();
    let options = LiveOptions {
        validator: listed.get_document("validator").ok().cloned(),
        validation_level: [ValidationLevel::Strict, ValidationLevel::Moderate, ValidationLevel::Off]
            .into_iter()
            .find(|l| Some(l.as_str()) == level),
        validation_action: [ValidationAction::Error, ValidationAction::Warn, ValidationAction::ErrorAndLog]
            .into_iter()
            .find(|a| Some(a.as_str()) == action),
        capped,
        timeseries: listed.get_document("timeseries").ok().cloned(),
        expire_after_seconds: number("expireAfterSeconds"),
        listed,
    };
    LiveCollection { name: spec.get_str("name").unwrap_or_default().to_owned(), kind, options, indexes }
}
