//! What the server holds for a collection, read back as it reports it (`listIndexes`, `listCollections`), and what
//! the server says it can do (`hello`, `buildInfo`), so tests decide from the server and never from the harness.

use futures_util::TryStreamExt;
use odm::bson::{doc, Document};

/// `listIndexes` of a collection, as raw documents.
pub async fn live_indexes(db: &odm::mongodb::Database, collection: &str) -> Vec<Document> {
    db.collection::<Document>(collection)
        .list_indexes()
        .await
        .expect("listIndexes")
        .with_type::<Document>()
        .try_collect()
        .await
        .expect("read indexes")
}

/// The names of a collection's indexes, `_id_` included, sorted.
pub async fn index_names(db: &odm::mongodb::Database, collection: &str) -> Vec<String> {
    let mut names: Vec<String> = live_indexes(db, collection)
        .await
        .iter()
        .map(|i| i.get_str("name").expect("an index name").to_owned())
        .collect();
    names.sort();
    names
}

/// The `options` of a collection as `listCollections` reports them (validator, level, action, capped, …).
pub async fn collection_options(db: &odm::mongodb::Database, collection: &str) -> Document {
    let specs: Vec<Document> = db
        .list_collections()
        .filter(doc! { "name": collection })
        .await
        .expect("listCollections")
        .with_type::<Document>()
        .try_collect()
        .await
        .expect("read collections");
    assert_eq!(specs.len(), 1, "collection `{collection}` exists once");
    specs[0].get_document("options").cloned().unwrap_or_default()
}

/// True when the server runs transactions (a replica set or a sharded cluster), as it says of itself; else a note,
/// and the caller skips (a standalone `mongod` given by `MONGODB_URI` refuses them).
pub async fn runs_transactions(client: &odm::mongodb::Client) -> bool {
    let server = odm::testing::ServerInfo::of(client).await.expect("buildInfo and hello");
    if !server.supports_transactions() {
        eprintln!("skipped: {server} cannot run transactions");
    }
    server.supports_transactions()
}

/// True when the server runs change streams (a replica set or a sharded cluster), as it says of itself; else a note,
/// and the caller skips (a standalone `mongod` given by `MONGODB_URI` has none).
pub async fn runs_change_streams(client: &odm::mongodb::Client) -> bool {
    let server = odm::testing::ServerInfo::of(client).await.expect("buildInfo and hello");
    if !server.supports_change_streams() {
        eprintln!("skipped: {server} has no change streams");
    }
    server.supports_change_streams()
}

/// The validator a collection has, as `listCollections` reports it; panics when it has none.
pub async fn live_validator(db: &odm::mongodb::Database, collection: &str) -> Document {
    let options = collection_options(db, collection).await;
    options.get_document("validator").unwrap_or_else(|_| panic!("`{collection}` has no validator: {options}")).clone()
}

/// The records odm keeps of the indexes it created in `db` (`odm_index`), without their dates, by collection and
/// index name.
pub async fn index_records(db: &odm::mongodb::Database) -> Vec<Document> {
    let coll = db.collection::<Document>(odm::sync::plan::ownership::OWNED_INDEXES);
    let cursor = coll.find(doc! {}).sort(doc! { "_id.c": 1, "_id.i": 1 }).await.expect("find");
    let mut found: Vec<Document> = cursor.try_collect().await.expect("records");
    found.iter_mut().for_each(|d| drop(d.remove("at")));
    found
}

/// The names of the indexes of `collection` that odm recorded creating in `db`, in name order.
pub async fn owned_index_names(db: &odm::mongodb::Database, collection: &str) -> Vec<String> {
    let records = index_records(db).await;
    let ids = records.iter().filter_map(|d| d.get_document("_id").ok());
    ids.filter(|id| id.get_str("c").ok() == Some(collection))
        .filter_map(|id| Some(id.get_str("i").ok()?.to_owned()))
        .collect()
}
