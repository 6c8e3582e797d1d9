//! A fresh database for one test, with a model's collection set up the way the test needs it.

use odm::bson::Document;
use odm::{Collection, Model, SchemaSync};

/// A fresh database named after `hint`, with `M`'s collection created (validator included).
pub async fn created<M: Model>(hint: &str) -> (odm::testing::TestDatabase, Collection<M>) {
    let db = odm::testing::database(hint).await;
    odm::collection::create_collection::<M>(&db).await.expect("create the model's collection");
    let coll = Collection::<M>::new(&db);
    (db, coll)
}

/// A fresh database named after `hint`, with `M`'s collection created (validator included), and that collection
/// untyped: for writes that go around odm, which the server's validator alone then judges.
pub async fn created_raw<M: Model>(hint: &str) -> (odm::testing::TestDatabase, odm::mongodb::Collection<Document>) {
    let (db, _) = created::<M>(hint).await;
    let raw = db.collection::<Document>(M::COLLECTION);
    (db, raw)
}

/// A fresh database named after `hint`, with `M`'s collection created and holding `values`, inserted through odm.
pub async fn seeded<M, I>(hint: &str, values: I) -> (odm::testing::TestDatabase, Collection<M>)
where
    M: Model,
    I: IntoIterator,
    I::Item: std::borrow::Borrow<M>,
{
    let (db, coll) = created::<M>(hint).await;
    coll.insert_many(values).await.expect("seed the collection");
    (db, coll)
}

/// A fresh database named after `hint`, with `M`'s collection synced (validator and declared indexes).
pub async fn synced<M: Model>(hint: &str) -> (odm::testing::TestDatabase, Collection<M>) {
    let db = odm::testing::database(hint).await;
    SchemaSync::new(db.client())
        .database(db.name())
        .model::<M>()
        .await
        .and_then(|r| r.require_in_sync())
        .expect("sync the model's collection");
    let coll = Collection::<M>::new(&db);
    (db, coll)
}

/// Syncs `spec` into `db` in the default mode (create what is missing) and requires nothing left to do.
pub async fn sync_spec(db: &odm::testing::TestDatabase, spec: odm::sync::ModelSpec) {
    SchemaSync::new(db.client())
        .database(db.name())
        .spec(spec)
        .await
        .and_then(|r| r.require_in_sync())
        .expect("sync the spec");
}
