//! The exported sync plan, run by mongosh itself: it creates exactly what odm's own sync creates (BSON types and
//! every digit included), prints each step's outcome, and stops with a non-zero exit at the first failure. And the
//! damage mongosh's relaxed Extended JSON would do (a partial filter's `9007199254740993` stored as
//! `9007199254740992`) is reported by verify as drift.

use crate::support;

use odm::bson::{doc, oid::ObjectId, DateTime, Document};
use odm::{sync::plan::Action, Model, SchemaSync, SyncMode};
use serde::{Deserialize, Serialize};
use support::shell::mongosh;

/// Numbers of every kind in the places a DBA script carries them: `long` bounds in the validator, a `long` and a
/// `double` in partial filters (one beyond 2^53), a `long` TTL.
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "export_order", closed, max_indexes = 4)]
#[odm(index(keys = "amount", partial = "amount > 9007199254740993"))]
#[odm(index(keys = "price", partial = "price >= 10.0"))]
#[odm(index(keys = "created", ttl = 3600))]
struct ExportOrder {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "tg")]
    #[odm(max_items = 30)]
    tags: Vec<String>,
    #[serde(rename = "am")]
    amount: i64,
    #[serde(rename = "pr")]
    price: f64,
    #[serde(rename = "ca")]
    created: DateTime,
}

/// A capped collection: `size` and `max` are `long`s in the `create` command.
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "log_export_event", capped(size = 1048576, max = 1000))]
struct ExportEvent {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "m")]
    message: String,
}

fn sync(client: &odm::mongodb::Client, db: &str) -> SchemaSync<'static> {
    // The client outlives every sync in these tests.
    let client: &'static odm::mongodb::Client = Box::leak(Box::new(client.clone()));
    SchemaSync::new(client).database(db).model::<ExportOrder>().model::<ExportEvent>()
}

/// Collection options and index specs exactly as the server lists them (BSON types included), by collection.
async fn live_state(db: &odm::mongodb::Database) -> Vec<(String, Document, Vec<Document>)> {
    let mut out = Vec::new();
    for name in ["export_order", "log_export_event"] {
        let mut indexes = support::server::live_indexes(db, name).await;
        for i in &mut indexes {
            i.remove("ns");
        }
        out.push((name.to_owned(), support::server::collection_options(db, name).await, indexes));
    }
    out
}

#[tokio::test]
async fn the_exported_script_creates_exactly_what_sync_creates_and_stops_at_the_first_failure() {
    let by_script = odm::testing::database("export_script").await;
    let by_sync = odm::testing::database("export_sync").await;

    let plan = sync(by_script.client(), by_script.name()).plan().await.expect("plan");
    let script = plan.to_mongosh();
    let steps = plan.actions.iter().map(|a| a.commands().len()).sum::<usize>();
    assert_eq!(steps, 8, "two creates, three indexes and their records: {plan}");
    let (code, out) = mongosh(&script);
    assert_eq!(code, 0, "{out}\n{script}");
    assert_eq!(out.matches("ok: ").count(), steps, "each step prints its outcome: {out}");
    assert!(out.contains(&format!("ok: {}.export_order: create index idx_am", by_script.name())), "{out}");
    assert!(out.trim_end().ends_with("odm sync plan: done"), "{out}");

    sync(by_sync.client(), by_sync.name()).await.and_then(|r| r.require_in_sync()).expect("sync");

    let (scripted, synced) = (live_state(&by_script).await, live_state(&by_sync).await);
    assert_eq!(scripted, synced, "the script and sync create the same options and indexes, BSON types included");
    // And the same records of the indexes odm created (when aside), so a DBA who ran the script leaves them odm's.
    let (scripted_records, synced_records) =
        (support::server::index_records(&by_script).await, support::server::index_records(&by_sync).await);
    assert_eq!(scripted_records.len(), 3, "{scripted_records:?}");
    assert_eq!(scripted_records, synced_records);
    // The cases relaxed Extended JSON got wrong, read back with their types.
    let (_, options, indexes) = &scripted[0];
    let schema = options.get_document("validator").unwrap().get_document("$jsonSchema").unwrap();
    let tags = schema.get_document("properties").unwrap().get_document("tg").unwrap();
    assert_eq!(tags.get("maxItems"), Some(&odm::bson::Bson::Int64(30)), "{tags}");
    let partial = |name: &str| {
        indexes
            .iter()
            .find(|i| i.get_str("name").ok() == Some(name))
            .unwrap()
            .get_document("partialFilterExpression")
            .ok()
            .cloned()
    };
    assert_eq!(partial("idx_am"), Some(doc! { "am": { "$gt": 9_007_199_254_740_993_i64 } }));
    assert_eq!(partial("idx_pr"), Some(doc! { "pr": { "$gte": 10.0 } }));
    let (_, capped, _) = &scripted[1];
    assert_eq!(
        (capped.get_bool("capped").ok(), capped.get("max").map(ToString::to_string)),
        (Some(true), Some("1000".into()))
    );

    // Verify agrees the scripted database is in line with the models.
    sync(by_script.client(), by_script.name())
        .mode(SyncMode::Verify)
        .await
        .and_then(|r| r.require_in_sync())
        .expect("verify after the script");

    // Against a database where the collection exists with other options, the first step fails: the script says
    // so with the server's answer, runs nothing more, and exits with code 1.
    let taken = odm::testing::database("export_fail").await;
    taken.create_collection("export_order").await.expect("a collection without validator");
    let script = script.replace(by_script.name(), taken.name());
    let (code, out) = mongosh(&script);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains(&format!("FAILED: {}.export_order: create collection with validator", taken.name())), "{out}");
    assert!(out.contains("already exists"), "the server's answer: {out}");
    assert!(!out.contains("ok: "), "nothing after the failure runs: {out}");
    assert_eq!(support::server::live_indexes(&taken, "export_order").await.len(), 1, "only _id");
}

#[tokio::test]
async fn verify_reports_a_partial_filter_number_off_by_one_as_drift() {
    let db = odm::testing::database("export_relaxed").await;
    sync(db.client(), db.name()).await.and_then(|r| r.require_in_sync()).expect("sync");
    // What a script reading Extended JSON in relaxed mode does: 9007199254740993 becomes the double 2^53.
    let relaxed = format!(
        "const d = db.getSiblingDB({:?});\n\
         d.export_order.dropIndex('idx_am');\n\
         d.runCommand(EJSON.deserialize({{ createIndexes: 'export_order', indexes: [{{ key: {{ am: 1 }}, name: \
         'idx_am', partialFilterExpression: {{ am: {{ $gt: {{ $numberLong: '9007199254740993' }} }} }} }}] }}));\n",
        db.name()
    );
    let (code, out) = mongosh(&relaxed);
    assert_eq!(code, 0, "{out}");
    let live = support::server::live_indexes(&db, "export_order").await;
    let am = live.iter().find(|i| i.get_str("name").ok() == Some("idx_am")).expect("idx_am");
    let stored = am.get_document("partialFilterExpression").unwrap().get_document("am").unwrap().get("$gt").unwrap();
    assert_ne!(stored, &odm::bson::Bson::Int64(9_007_199_254_740_993), "relaxed mode changed the number: {am}");

    let err = sync(db.client(), db.name()).mode(SyncMode::Verify).await.expect_err("drift");
    let odm::Error::Drift(plan) = &err else { panic!("{err}") };
    assert!(
        // Recreated with another filter than odm recorded, the index is no longer odm's: a conflict, never rebuilt.
        plan.actions.iter().any(|a| matches!(a, Action::IndexConflict { desired, .. } if desired.name == "idx_am")),
        "{plan}"
    );
}

/// The exported script drops only the stale indexes odm recorded creating, and deletes their records; a DBA's
/// index named like odm's is a note in the script, never a step.
#[tokio::test]
async fn the_exported_script_drops_only_odms_stale_indexes_and_their_records() {
    let db = odm::testing::database("export_stale").await;
    sync(db.client(), db.name()).await.and_then(|r| r.require_in_sync()).expect("sync");
    let (code, out) = mongosh(&format!(
        "db.getSiblingDB({:?}).export_order.createIndex({{ tg: 1 }}, {{ name: 'idx_tg' }});",
        db.name()
    ));
    assert_eq!(code, 0, "{out}");
    // The model no longer declares its TTL index on `created`.
    let mut spec = odm::sync::ModelSpec::of::<ExportOrder>();
    spec.indexes.retain(|i| i.name != "idx_ca");
    let plan = SchemaSync::new(db.client())
        .database(db.name())
        .spec(spec)
        .stale_indexes(odm::sync::plan::StaleHandling::Drop)
        .plan()
        .await
        .expect("plan");
    let script = plan.to_mongosh();
    assert!(script.contains("{\"delete\":\"odm_index\","), "the record goes with the index: {script}");
    assert!(script.contains("note: ") && script.contains("idx_tg"), "{script}");
    let (code, out) = mongosh(&script);
    assert_eq!(code, 0, "{out}\n{script}");
    let names = support::server::index_names(&db, "export_order").await;
    assert_eq!(names, ["_id_", "idx_am", "idx_pr", "idx_tg"], "{out}");
    assert_eq!(support::server::owned_index_names(&db, "export_order").await, ["idx_am", "idx_pr"]);
}
