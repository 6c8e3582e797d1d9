//! The instances of a collection named at run time (`#[odm(collection = "log_app_event_{yyyymm}")]`; see
//! [`crate::template`]): naming one, listing the live ones, and dropping the periods a retention has expired.

use crate::error::{Error, Invalid, Result};
use crate::model::Model;
use crate::observe::Op;
use crate::template::{Instance, InstanceKey, InstanceKeyError};
use bson::DateTime;
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

/// The live instances of `M` in `db`, in name order (for periods, oldest first): the collections whose names its
/// template names exactly. Empty for a model without a template.
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
pub async fn instances<M: Model>(db: &Database) -> Result<Vec<Instance>> {
    let Some(template) = M::TEMPLATE else { return Ok(Vec::new()) };
    let names =
        Op::on_db(db, "", "listCollections").run(db.list_collection_names()).await.map_err(Error::from_write::<M>)?;
    let mut live: Vec<Instance> = names.iter().filter_map(|n| template.parse(n)).collect();
    live.sort();
    Ok(live)
}

/// The instances of `M` in `db` whose period the model's retention (`#[odm(keep_periods = N)]`) has expired at
/// `now`, oldest first: what [`drop_expired`] would drop, dropping nothing. Empty for a model without a retention.
pub async fn expired<M: Model>(db: &Database, now: DateTime) -> Result<Vec<Instance>> {
    let Some(template) = M::TEMPLATE else { return Ok(Vec::new()) };
    let names =
        Op::on_db(db, "", "listCollections").run(db.list_collection_names()).await.map_err(Error::from_write::<M>)?;
    Ok(template.expired(names.iter().map(String::as_str), now))
}

/// Drops the instances of `M` in `db` whose period the model's retention (`#[odm(keep_periods = N)]`) has
/// expired at `now`: every period older than the latest `N`, the current one included. Returns the names dropped,
/// oldest first. Drops nothing for a model without a retention, and never a collection its template does not name
/// (a `log_app_event_backup` beside `log_app_event_{yyyymm}` stays). An instance another process dropped meanwhile
/// counts as dropped.
pub async fn drop_expired<M: Model>(db: &Database, now: DateTime) -> Result<Vec<String>> {
    let mut dropped = Vec::new();
    for instance in expired::<M>(db, now).await? {
        let coll = db.collection::<bson::Document>(&instance.name);
        match Op::on(&coll, "drop").run(coll.drop()).await.map_err(Error::from_write::<M>) {
            Ok(()) => {}
            // Servers before 7.0 answer a drop of a missing collection with NamespaceNotFound.
            Err(e) if e.code() == Some(26) => {}
            Err(e) => return Err(e),
        }
        tracing::info!(target: "odm::retention", collection = %instance.name, "dropped an expired period");
        dropped.push(instance.name);
    }
    Ok(dropped)
}
