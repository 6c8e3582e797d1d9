//! Reading what the database has: the models' collections (one `listCollections` per database) and their indexes.
//! [`crate::live`] lists what is live through the same reads.

use crate::base::error::{Error, Result};
use crate::base::index::IndexSpec;
use crate::base::model::VersionSpec;
use crate::driver::observe::Op;
use bson::{doc, Document};
use futures_util::{stream, StreamExt, TryStreamExt};
use mongodb::{Client, Database};
use std::collections::HashMap;

/// How many `listIndexes` a plan keeps in flight. Across a network, a sequential sweep of many collections spends
/// most of its time waiting for round trips, and a few in flight hide that wait (against a server on the same busy
/// machine, which is the bottleneck itself, it changes little). Eight stays below the driver's default pool
/// (`maxPoolSize` 10: more would only queue for a connection), leaves connections to the application sharing the
/// client, and is a light load for the server even when many replicas start at once.
const CONCURRENT_READS: usize = 8;

/// The named collections of `db` that exist, by name, as raw documents with their options (the driver's typed form
/// rejects newer option values). The filter keeps a database's other collections, and their validators, off the
/// wire; `nameOnly` cannot be used, since the options are what is compared.
pub(crate) async fn list_collections(db: &Database, names: &[&str]) -> Result<HashMap<String, Document>> {
    list_collections_matching(db, doc! { "name": { "$in": names } }).await
}

/// The collections of `db` that `filter` matches (`{}`: all of them), by name, as raw documents with their options.
pub(crate) async fn list_collections_matching(db: &Database, filter: Document) -> Result<HashMap<String, Document>> {
    let op = Op::on_db(db, "", "listCollections").values(|| doc! { "filter": &filter });
    let list = db.list_collections().filter(filter).batch_size(100_000);
    let specs: Vec<Document> =
        op.run(async { list.await?.with_type::<Document>().try_collect::<Vec<_>>().await }).await?;
    Ok(specs.into_iter().filter_map(|s| Some((s.get_str("name").ok()?.to_owned(), s))).collect())
}

/// The indexes of each named collection, read with at most [`CONCURRENT_READS`] `listIndexes` in flight.
pub(super) async fn list_indexes_of<'a>(
    db: &Database,
    collections: Vec<&'a str>,
) -> Result<HashMap<&'a str, Vec<IndexSpec>>> {
    let mut all = listed_indexes_of(db, collections).await?;
    all.values_mut().for_each(without_id_index);
    Ok(all)
}

/// Every index of each named collection, `_id_` included, read with at most [`CONCURRENT_READS`] `listIndexes` in
/// flight.
pub(crate) async fn listed_indexes_of<'a>(
    db: &Database,
    collections: Vec<&'a str>,
) -> Result<HashMap<&'a str, Vec<IndexSpec>>> {
    let reads: Vec<_> = collections.into_iter().map(|c| named_indexes(db, c)).collect();
    stream::iter(reads).buffer_unordered(CONCURRENT_READS).try_collect().await
}

async fn named_indexes<'a>(db: &Database, collection: &'a str) -> Result<(&'a str, Vec<IndexSpec>)> {
    Ok((collection, listed_indexes(db, collection).await?))
}

/// The indexes a sync compares with the models: every one but `_id_`, which every collection has and no model
/// declares.
pub(super) async fn list_indexes(db: &Database, collection: &str) -> Result<Vec<IndexSpec>> {
    let mut listed = listed_indexes(db, collection).await?;
    without_id_index(&mut listed);
    Ok(listed)
}

fn without_id_index(indexes: &mut Vec<IndexSpec>) {
    indexes.retain(|s| s.name != "_id_");
}

/// Every index of `collection` as listed, `_id_` included (none when the collection was dropped meanwhile).
pub(crate) async fn listed_indexes(db: &Database, collection: &str) -> Result<Vec<IndexSpec>> {
    let coll = db.collection::<Document>(collection);
    let list = coll.list_indexes().batch_size(100_000);
    let listed = Op::on(&coll, "listIndexes")
        .run(async {
            match list.await {
                Ok(cursor) => cursor.with_type::<Document>().try_collect().await,
                Err(e) if Error::from(e.clone()).code() == Some(26) => Ok(Vec::new()), // dropped meanwhile
                Err(e) => Err(e),
            }
        })
        .await?;
    Ok(listed.iter().filter_map(IndexSpec::from_listed).collect())
}

/// True when `collection` holds a document of a version other than the model's current one (without the version
/// key, or with another value): a versioned model's validator must then still accept older shapes.
pub(super) async fn has_older_documents(db: &Database, collection: &str, spec: VersionSpec) -> Result<bool> {
    let coll = db.collection::<Document>(collection);
    let filter = older_filter(spec);
    let op = Op::on(&coll, "find").values(|| doc! { "filter": &filter, "limit": 1 });
    Ok(op.run(coll.find_one(filter).projection(doc! { "_id": 1 })).await?.is_some())
}

/// How many documents to name in a report of documents the model cannot read.
const SAMPLE_IDS: i64 = 5;

/// The documents of `collection` not at the model's current version that the rollout validator (every version the
/// model reads, each in its own shape) refuses: a version key stored as another type (`1.0`, `NumberLong(1)`) or
/// an unknown version, or a shape of no listed version. A typed read fails on each of them and
/// [`Collection::migrate`](crate::Collection::migrate) cannot bring them forward, so while they remain the validator
/// can never tighten to the current version. How many, and the first few `_id`s.
pub(super) async fn unreadable_older_documents(
    db: &Database,
    collection: &str,
    spec: VersionSpec,
    rollout: &Document,
) -> Result<(u64, Vec<bson::Bson>)> {
    let filter = doc! { "$and": [older_filter(spec), { "$nor": [rollout.clone()] }] };
    let coll = db.collection::<Document>(collection);
    let find = coll.find(filter.clone()).projection(doc! { "_id": 1 }).limit(SAMPLE_IDS);
    let op = Op::on(&coll, "find").values(|| doc! { "filter": &filter, "limit": SAMPLE_IDS });
    let sample: Vec<Document> = op.run(async { find.await?.try_collect().await }).await?;
    if sample.is_empty() {
        return Ok((0, Vec::new()));
    }
    let op = Op::on(&coll, "aggregate").values(|| doc! { "query": &filter });
    let count = op.run(coll.count_documents(filter)).await?;
    Ok((count, sample.into_iter().filter_map(|mut d| d.remove("_id")).collect()))
}

/// The documents not at the current version (without the version key, or with another value).
pub(crate) fn older_filter(spec: VersionSpec) -> Document {
    doc! { spec.key: { "$ne": i64::from(spec.current) } }
}

/// True when the client talks to a sharded cluster's router (`mongos` answers `hello` with `msg: "isdbgrid"`).
pub(super) async fn is_cluster(client: &Client) -> Result<bool> {
    let admin = client.database("admin");
    let hello = Op::on_db(&admin, "", "hello").run(admin.run_command(doc! { "hello": 1 })).await?;
    Ok(hello.get_str("msg").ok() == Some("isdbgrid"))
}

/// The live shard keys of the named namespaces (`<db>.<collection>`) that are sharded, from `config.collections`.
pub(super) async fn shard_keys(client: &Client, namespaces: Vec<String>) -> Result<HashMap<String, Document>> {
    let catalog = client.database("config").collection::<Document>("collections");
    let find =
        catalog.find(doc! { "_id": { "$in": namespaces }, "dropped": { "$ne": true } }).projection(doc! { "key": 1 });
    let sharded: Vec<Document> = Op::on(&catalog, "find").run(async { find.await?.try_collect().await }).await?;
    Ok(sharded
        .into_iter()
        .filter_map(|c| Some((c.get_str("_id").ok()?.to_owned(), c.get_document("key").ok()?.clone())))
        .collect())
}

/// The records ([`ownership`](crate::sync::plan::ownership)) of the named indexes of `collection`: one `find` on the
/// database's `odm_index` by `_id`, none when no name is asked about.
pub(super) async fn index_records(
    db: &Database,
    collection: &str,
    names: &[&str],
) -> Result<crate::base::plan::ownership::Records> {
    use crate::base::plan::ownership::{record_id, Records, OWNED_INDEXES};
    if names.is_empty() {
        return Ok(Records::default());
    }
    let ids: Vec<Document> = names.iter().map(|n| record_id(collection, n)).collect();
    let filter = doc! { "_id": { "$in": ids } };
    let records = db.collection::<Document>(OWNED_INDEXES);
    let find = records.find(filter.clone());
    let op = Op::on(&records, "find").values(|| doc! { "filter": &filter });
    let found: Vec<Document> = op.run(async { find.await?.try_collect().await }).await?;
    Ok(Records::of(collection, &found))
}
