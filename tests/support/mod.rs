//! Shared test support: models for every field family, and hostile-document builders.
#![allow(dead_code)]

pub mod hostile;
pub mod models;

use odm::bson::Bson;

/// Semantic BSON equality for round trips: documents compare as maps (a `HashMap` field may serialize its keys in
/// another order after decoding), doubles compare by bit pattern (so NaN equals itself).
pub fn same_bson(a: &Bson, b: &Bson) -> bool {
    match (a, b) {
        (Bson::Double(x), Bson::Double(y)) => x.to_bits() == y.to_bits(),
        (Bson::Document(x), Bson::Document(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same_bson(v, w)))
        }
        (Bson::Array(x), Bson::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(v, w)| same_bson(v, w)),
        _ => a == b,
    }
}

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
