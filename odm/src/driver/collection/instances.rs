//! The instances of a collection named at run time (`#[odm(collection = "log_app_event_{yyyymm}")]`; see
//! [`crate::template`]): naming one, listing the live ones, and dropping the periods a retention has expired.

use crate::base::error::{Error, Invalid, Result};
use crate::base::model::Model;
use crate::base::plan::ownership::OWNED_INDEXES;
use crate::base::template::{Instance, InstanceKey, InstanceKeyError, NameTemplate};
use crate::driver::observe::Op;
use bson::{doc, DateTime, Document};
use futures_util::TryStreamExt;
use mongodb::Database;

/// The collection name of the instance of `M` that `key` names; fails before anything is sent when `M` is not
/// named by a template or `key` names no instance of it.
pub(crate) fn instance_name<M: Model>(key: &InstanceKey) -> Result<String> {
    let Some(template) = M::TEMPLATE else {
        let reason = "the model's collection name has no placeholder: open it with `Collection::new`".to_owned();
        return Err(refused::<M>(InstanceKeyError { template: M::COLLECTION.to_owned(), reason }));
    };
    template.name_of(key).map_err(refused::<M>)
}

fn refused<M: Model>(e: InstanceKeyError) -> Error {
    Error::invalid_operation::<M>(Invalid::Instance(e))
}

/// A namespace named like an instance of a template that is not a collection of the model's kind: a view
/// (`db.createView`), or a time-series collection for a model that is not one. It is never listed as an instance,
/// synced or dropped; listings report it so an operator sees what was left alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotACollection {
    /// Its name.
    pub name: String,
    /// Its type as `listCollections` gives it (`view`, `timeseries`).
    pub kind: String,
}

impl std::fmt::Display for NotACollection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: a {} named like an instance, not a collection of the model: left alone", self.name, self.kind)
    }
}

/// The live instances of a model named by a template ([`instances`], [`expired`]): its collections, in name order
/// (for periods, oldest first), and what is named like one but is no collection of the model ([`NotACollection`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Instances {
    /// The instances: collections (`listCollections` type `collection`; for a time-series model, `timeseries` too).
    pub collections: Vec<Instance>,
    /// Named like an instance, of another type: never synced nor dropped.
    pub skipped: Vec<NotACollection>,
}

impl Instances {
    /// How many instances (skipped names not counted).
    pub fn len(&self) -> usize {
        self.collections.len()
    }

    /// True when there is no instance.
    pub fn is_empty(&self) -> bool {
        self.collections.is_empty()
    }
}

impl IntoIterator for Instances {
    type Item = Instance;
    type IntoIter = std::vec::IntoIter<Instance>;

    /// The instances (collections), in order.
    fn into_iter(self) -> Self::IntoIter {
        self.collections.into_iter()
    }
}

/// What [`drop_expired`] did: the expired periods it dropped, and what is named like one but is not a collection
/// of the model, left alone.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Dropped {
    /// The collections dropped, oldest first.
    pub dropped: Vec<String>,
    /// Named like an expired period, of another type (a view, say): not dropped.
    pub skipped: Vec<NotACollection>,
}

/// The names of `db` that `template` names, split by type: the model's collections (a time-series model's
/// `timeseries` too), and the others. One `listCollections` (names and types only). A view's definition, or a
/// time-series collection under a model that is not one, is never an instance: dropping it would lose what another
/// tool made, and syncing it would put the model's indexes and validator on it (which mongod refuses on a view).
pub(crate) async fn listed(
    db: &Database,
    template: NameTemplate,
    timeseries: bool,
) -> mongodb::error::Result<(Vec<String>, Vec<NotACollection>)> {
    let command = doc! { "listCollections": 1, "nameOnly": true };
    let op = Op::on_db(db, "", "listCollections").values(|| command.clone());
    let list = async { db.run_cursor_command(command.clone()).await?.try_collect::<Vec<Document>>().await };
    let entries = op.run(list).await?;
    let (mut collections, mut skipped) = (Vec::new(), Vec::new());
    for entry in entries {
        let Ok(name) = entry.get_str("name") else { continue };
        if template.parse(name).is_none() {
            continue;
        }
        let kind = entry.get_str("type").unwrap_or("collection");
        if kind == "collection" || (kind == "timeseries" && timeseries) {
            collections.push(name.to_owned());
        } else {
            skipped.push(NotACollection { name: name.to_owned(), kind: kind.to_owned() });
        }
    }
    skipped.sort_by(|a, b| a.name.cmp(&b.name));
    Ok((collections, skipped))
}

/// [`listed`] for model `M`.
async fn listed_of<M: Model>(db: &Database, template: NameTemplate) -> Result<(Vec<String>, Vec<NotACollection>)> {
    listed(db, template, M::TIMESERIES.is_some()).await.map_err(Error::from_write::<M>)
}

/// The live instances of `M` in `db`, in name order (for periods, oldest first): the collections whose names its
/// template names exactly. A view or another kind of namespace with such a name is no instance: it is in
/// [`Instances::skipped`]. Empty for a model without a template.
///
/// ```no_run
/// # #[derive(serde::Serialize, serde::Deserialize, odm::Model)]
/// # #[odm(collection = "log_app_event_{yyyymm}", keep_periods = 12)]
/// # struct Event { #[serde(rename = "_id")] id: odm::bson::oid::ObjectId }
/// # async fn run(db: odm::mongodb::Database) -> odm::error::Result<()> {
/// for instance in odm::collection::instances::<Event>(&db).await? {
///     println!("{} from {:?}", instance.name, instance.period_start);
/// }
/// # Ok(()) }
/// ```
pub async fn instances<M: Model>(db: &Database) -> Result<Instances> {
    let Some(template) = M::TEMPLATE else { return Ok(Instances::default()) };
    let (names, skipped) = listed_of::<M>(db, template).await?;
    let mut collections: Vec<Instance> = names.iter().filter_map(|n| template.parse(n)).collect();
    collections.sort();
    Ok(Instances { collections, skipped })
}

/// The instances of `M` in `db` whose period the model's retention (`#[odm(keep_periods = N)]`) has expired at
/// `now`, oldest first: what [`drop_expired`] would drop, dropping nothing; [`Instances::skipped`] lists what is
/// named like an expired period but is not a collection (never dropped). Empty for a model without a retention.
pub async fn expired<M: Model>(db: &Database, now: DateTime) -> Result<Instances> {
    let Some(template) = M::TEMPLATE else { return Ok(Instances::default()) };
    let (names, skipped) = listed_of::<M>(db, template).await?;
    let collections = template.expired(names.iter().map(String::as_str), now);
    let expired_names = template.expired(skipped.iter().map(|s| s.name.as_str()), now);
    let skipped = skipped.into_iter().filter(|s| expired_names.iter().any(|e| e.name == s.name)).collect();
    Ok(Instances { collections, skipped })
}

/// Drops the instances of `M` in `db` whose period the model's retention (`#[odm(keep_periods = N)]`) has
/// expired at `now`: every period older than the latest `N`, the current one included. Returns the names dropped,
/// oldest first, and what it left alone. Drops nothing for a model without a retention, never a collection its
/// template does not name (a `log_app_event_backup` beside `log_app_event_{yyyymm}` stays), and never a view or
/// other namespace of an expired period's name ([`Dropped::skipped`]). An instance another process dropped
/// meanwhile counts as dropped. odm's records of the dropped collection's indexes go with it.
pub async fn drop_expired<M: Model>(db: &Database, now: DateTime) -> Result<Dropped> {
    let expired = expired::<M>(db, now).await?;
    let mut dropped = Vec::new();
    for instance in expired.collections {
        let coll = db.collection::<bson::Document>(&instance.name);
        match Op::on(&coll, "drop").run(coll.drop()).await.map_err(Error::from_write::<M>) {
            Ok(()) => {}
            // Servers before 7.0 answer a drop of a missing collection with NamespaceNotFound.
            Err(e) if e.code() == Some(26) => {}
            Err(e) => return Err(e),
        }
        forget_indexes::<M>(db, &instance.name).await?;
        tracing::info!(target: "odm::retention", collection = %instance.name, "dropped an expired period");
        dropped.push(instance.name);
    }
    for skipped in &expired.skipped {
        tracing::warn!(target: "odm::retention", collection = %skipped.name, kind = %skipped.kind, "named like an expired period but not a collection: left alone");
    }
    Ok(Dropped { dropped, skipped: expired.skipped })
}

/// Deletes odm's records of the indexes of the dropped collection `name` ([`crate::sync::plan::ownership`]), so a
/// collection made later under that name owns none of them.
async fn forget_indexes<M: Model>(db: &Database, name: &str) -> Result<()> {
    let records = db.collection::<Document>(OWNED_INDEXES);
    let filter = doc! { "_id.c": name };
    let op = Op::on(&records, "delete").values(|| doc! { "q": &filter });
    op.run(records.delete_many(filter.clone())).await.map_err(Error::from_write::<M>)?;
    Ok(())
}
