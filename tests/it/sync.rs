//! Startup sync against the real server: create-missing, verify, apply; validators compared canonically and
//! rolled out by policy; indexes matched by structure, owned by name; foreign objects never touched; concurrent
//! syncs converge; a steady-state sync reads only.

use crate::support;

use odm::bson::{doc, oid::ObjectId, Document};
use odm::error::Waited;
use odm::sync::ModelSpec;
use odm::{
    index::IndexSpec, sync::plan::Action, sync::plan::AdoptIndexes, sync::plan::StaleHandling, sync::Outcome,
    sync::ValidatorRollout, Model, SchemaSync, SyncMode,
};
use serde::{Deserialize, Serialize};
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[derive(Model, Serialize, Deserialize, Debug, Clone)]
#[odm(collection = "order_header", closed)]
struct Order {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "mi")]
    merchant: String,
    #[serde(rename = "st")]
    status: String,
    #[serde(rename = "am")]
    amount: i64,
    #[serde(rename = "ca")]
    created: odm::bson::DateTime,
}

fn ttl(seconds: i64) -> IndexSpec {
    let mut s = IndexSpec::new("idx_ca", doc! { "ca": 1 });
    s.expire_after_seconds = Some(seconds);
    s
}

fn order_spec() -> ModelSpec {
    let mut spec = ModelSpec::of::<Order>();
    spec.indexes = vec![IndexSpec::new("idx_mi_st_am", doc! { "mi": 1, "st": 1, "am": -1 }), ttl(3600)];
    spec
}

#[tokio::test]
async fn create_missing_then_in_sync_then_verify() {
    let db = odm::testing::database("sync_fresh").await;
    let sync = || SchemaSync::new(db.client()).database(db.name()).spec(order_spec());

    // Verify changes nothing and reports the drift.
    let err = sync().mode(SyncMode::Verify).await.expect_err("drift");
    let odm::Error::Drift(plan) = &err else { panic!("{err}") };
    assert_eq!(
        plan.actions.iter().map(Action::kind).collect::<Vec<_>>(),
        ["createCollection", "createIndex", "createIndex"]
    );
    assert!(db.list_collection_names().await.expect("names").is_empty(), "verify is read-only");

    let report = sync().await.expect("create missing");
    assert!(report.outcomes.iter().all(|o| *o == Outcome::Done), "{report}");
    assert_eq!(support::server::live_validator(&db, "order_header").await, Order::validator());
    assert_eq!(support::server::index_names(&db, "order_header").await, ["_id_", "idx_ca", "idx_mi_st_am"]);

    let again = sync().await.expect("second sync");
    assert!(again.plan.actions.is_empty(), "{again}");
    sync().mode(SyncMode::Verify).await.and_then(|r| r.require_in_sync()).expect("verify passes");
}

#[tokio::test]
async fn validator_changes_are_applied_only_in_apply_mode_and_staged_on_existing_documents() {
    let db = odm::testing::database("sync_validator").await;
    // An older version of the model: no validator at all, and a document that the new validator rejects.
    db.create_collection("order_header").await.expect("create");
    db.collection::<Document>("order_header")
        .insert_one(doc! { "mi": "m1", "st": "paid", "am": 5 })
        .await
        .expect("old doc");
    let sync = || SchemaSync::new(db.client()).database(db.name()).spec(ModelSpec::of::<Order>());

    let logs = Warnings::default();
    let report = {
        let _capture = logs.capture();
        sync().await.expect("create-missing")
    };
    assert_eq!(report.plan.actions.len(), 1);
    assert!(matches!(report.plan.actions[0], Action::UpdateValidator { .. }));
    assert_eq!(report.outcomes, [Outcome::Pending], "create-missing leaves validators alone");
    // The drift is not silent: a warning per pending item, a report that says so, one call to make it an error.
    let warned = logs.0.lock().unwrap().clone();
    assert_eq!(warned.len(), 1, "{warned:?}");
    assert!(warned[0].contains("still differs") && warned[0].contains("add validator"), "{warned:?}");
    assert!(!report.is_in_sync());
    assert!(report.to_string().starts_with("STILL DIFFERS: 1 item(s)"), "{report}");
    let Err(odm::Error::Drift(plan)) = report.require_in_sync() else { panic!("pending drift is an error") };
    assert_eq!(plan.actions, report.plan.actions);
    assert!(!support::server::collection_options(&db, "order_header").await.contains_key("validator"));

    let report = sync().mode(SyncMode::Apply).await.expect("apply");
    assert_eq!(report.outcomes, [Outcome::Staged { failing: 1 }], "{report}");
    let opts = support::server::collection_options(&db, "order_header").await;
    assert_eq!(opts.get_document("validator").expect("validator"), &Order::validator());
    assert_eq!(opts.get_str("validationLevel").ok(), Some("moderate"));
    assert_eq!(opts.get_str("validationAction").ok(), Some("warn"));

    // Fix the data; the next sync finishes the rollout at strict/error.
    db.collection::<Document>("order_header").delete_many(doc! {}).await.expect("clean");
    db.collection::<Document>("order_header")
        .insert_one(
            odm::bson::serialize_to_document(&Order {
                id: ObjectId::new(),
                merchant: "m1".into(),
                status: "paid".into(),
                amount: 5,
                created: odm::bson::DateTime::now(),
            })
            .expect("valid"),
        )
        .await
        .expect("valid doc");
    let report = sync().mode(SyncMode::Apply).await.expect("apply");
    assert_eq!(report.outcomes, [Outcome::Done], "{report}");
    let opts = support::server::collection_options(&db, "order_header").await;
    assert_eq!(opts.get_str("validationLevel").ok(), Some("strict"));
    assert_eq!(opts.get_str("validationAction").ok(), Some("error"));
    assert!(sync().mode(SyncMode::Verify).await.is_ok());
}

/// A direct rollout counts the stored documents the new validator fails (written by mongosh): with some, it does
/// not apply it (drift), unless asked to tighten anyway; either way the report says how many.
#[tokio::test]
async fn a_direct_rollout_counts_failing_documents_before_tightening() {
    let db = odm::testing::database("sync_direct").await;
    support::setup::sync_spec(&db, order_spec()).await;
    let (code, out) = support::shell::mongosh(&format!(
        "db.getSiblingDB({:?}).order_header.insertMany([\n\
           {{ mi: 'm1', st: 'new', am: NumberLong(5), ca: new Date() }},\n\
           {{ mi: 'm2', st: 'new', am: NumberLong(7), ca: new Date() }}]);",
        db.name()
    ));
    assert_eq!(code, 0, "{out}");
    let before = support::server::live_validator(&db, "order_header").await;
    let mut tighter = order_spec();
    tighter.validator = doc! { "$jsonSchema": { "bsonType": "object", "required": ["mi", "zz"] } };
    let sync = |rollout| {
        SchemaSync::new(db.client())
            .database(db.name())
            .spec(tighter.clone())
            .mode(SyncMode::Apply)
            .validator_rollout(rollout)
    };

    let direct = sync(ValidatorRollout::Direct).await.expect("direct");
    assert_eq!(direct.outcomes, [Outcome::NotTightened { failing: 2 }], "{direct}");
    assert!(!direct.is_in_sync(), "left unapplied is drift");
    assert!(direct.to_string().contains("NOT APPLIED: 2 stored document(s)"), "{direct}");
    assert_eq!(support::server::live_validator(&db, "order_header").await, before, "not applied");

    let anyway = sync(ValidatorRollout::DirectAnyway).await.expect("anyway");
    assert_eq!(anyway.outcomes, [Outcome::TightenedOver { failing: 2 }], "{anyway}");
    assert!(anyway.is_in_sync(), "tightened as asked: {anyway}");
    assert!(anyway.to_string().contains("applied over 2 stored document(s) that fail it"), "{anyway}");
    assert_eq!(support::server::live_validator(&db, "order_header").await, tighter.validator);
}

#[tokio::test]
async fn ttl_changes_in_place_and_conflicts_with_foreign_indexes_are_reported() {
    let db = odm::testing::database("sync_indexes").await;
    support::setup::sync_spec(&db, order_spec()).await;
    // Outside the ODM: a foreign index on keys a new model version also wants.
    db.run_command(doc! { "createIndexes": "order_header", "indexes": [{ "key": { "x": 1 }, "name": "dba_x" }] })
        .await
        .expect("foreign index");

    let mut spec = order_spec();
    spec.indexes[1] = ttl(60);
    spec.indexes.push(IndexSpec::new("idx_x", doc! { "x": 1 }));
    let report =
        SchemaSync::new(db.client()).database(db.name()).spec(spec.clone()).mode(SyncMode::Apply).await.expect("apply");
    let kinds: Vec<&str> = report.plan.actions.iter().map(Action::kind).collect();
    assert_eq!(kinds, ["modifyIndex", "indexConflict"], "{report}");
    assert_eq!(report.outcomes, [Outcome::Done, Outcome::Pending]);
    assert!(report.to_string().contains("dba_x"), "the conflict names the live index: {report}");

    let live = support::server::live_indexes(&db, "order_header").await;
    let by_name = |n: &str| live.iter().find(|i| i.get_str("name").ok() == Some(n)).cloned().expect(n);
    let seconds = by_name("idx_ca").get("expireAfterSeconds").and_then(|v| v.as_i64().or(v.as_i32().map(i64::from)));
    assert_eq!(seconds, Some(60), "TTL changed in place");
    assert_eq!(by_name("dba_x").get_document("key").expect("key"), &doc! { "x": 1 }, "foreign index untouched");
    assert_eq!(live.len(), 4);
    // The conflict stays visible to verify.
    let err =
        SchemaSync::new(db.client()).database(db.name()).spec(spec).mode(SyncMode::Verify).await.expect_err("drift");
    assert!(err.to_string().contains("CONFLICT"), "{err}");
}

#[tokio::test]
async fn hidden_changes_in_place_or_are_reported_when_the_server_ignores_them() {
    let db = odm::testing::database("sync_hidden").await;
    support::setup::sync_spec(&db, order_spec()).await;
    let mut spec = order_spec();
    spec.indexes[0].hidden = true;
    let report =
        SchemaSync::new(db.client()).database(db.name()).spec(spec).mode(SyncMode::Apply).await.expect("apply");
    assert_eq!(report.plan.actions.iter().map(Action::kind).collect::<Vec<_>>(), ["modifyIndex"]);
    let live = support::server::live_indexes(&db, "order_header").await;
    let hidden =
        live.iter().find(|i| i.get_str("name").ok() == Some("idx_mi_st_am")).and_then(|i| i.get_bool("hidden").ok());
    match &report.outcomes[0] {
        Outcome::Done => assert_eq!(hidden, Some(true)),
        // SecantusDB acknowledges collMod {hidden} without applying it; sync says so instead of claiming success.
        Outcome::Refused(why) => {
            assert_eq!(hidden, None);
            assert!(why.contains("unchanged"), "{why}");
        }
        other => panic!("unexpected outcome {other:?}"),
    }
}

#[tokio::test]
async fn stale_owned_indexes_are_kept_hidden_or_dropped_on_request_and_foreign_ones_never() {
    let db = odm::testing::database("sync_stale").await;
    let mut old = order_spec();
    old.indexes.push(IndexSpec::new("idx_st", doc! { "st": 1 }));
    support::setup::sync_spec(&db, old).await;
    db.run_command(doc! { "createIndexes": "order_header", "indexes": [{ "key": { "st": -1 }, "name": "manual_st" }] })
        .await
        .expect("foreign");
    let sync =
        |h| SchemaSync::new(db.client()).database(db.name()).spec(order_spec()).mode(SyncMode::Apply).stale_indexes(h);

    let kept = sync(StaleHandling::Keep).await.expect("keep");
    assert_eq!(kept.plan.actions.iter().map(Action::kind).collect::<Vec<_>>(), ["staleIndex"]);
    assert!(kept.plan.is_in_sync(), "a kept stale index is information, not drift");
    let hidden = sync(StaleHandling::Hide).await.expect("hide");
    let live = support::server::live_indexes(&db, "order_header").await;
    let is_hidden =
        live.iter().find(|i| i.get_str("name").ok() == Some("idx_st")).and_then(|i| i.get_bool("hidden").ok());
    match &hidden.outcomes[..] {
        [Outcome::Done] => assert_eq!(is_hidden, Some(true)),
        [Outcome::Refused(_)] => assert_eq!(is_hidden, None, "refused means unchanged"),
        other => panic!("unexpected outcomes {other:?}"),
    }
    let dropped = sync(StaleHandling::Drop).await.expect("drop");
    assert_eq!(dropped.outcomes, [Outcome::Done]);
    let names = support::server::index_names(&db, "order_header").await;
    assert!(!names.contains(&"idx_st".to_owned()));
    assert!(names.contains(&"manual_st".to_owned()), "foreign index never dropped: {names:?}");
}

/// An index a DBA made by hand is never odm's, whatever its name (even `idx_…`, as the naming rule tells DBAs):
/// a sync that drops stale indexes drops the one odm created and leaves the DBA's, reported as not odm's.
#[tokio::test]
async fn an_index_odm_did_not_create_is_never_dropped_whatever_its_name() {
    let db = odm::testing::database("sync_ownership").await;
    let mut old = order_spec();
    old.indexes.push(IndexSpec::new("idx_st", doc! { "st": 1 }));
    support::setup::sync_spec(&db, old).await;
    assert_eq!(
        support::server::owned_index_names(&db, "order_header").await,
        ["idx_ca", "idx_mi_st_am", "idx_st"],
        "odm recorded each index it created"
    );
    // A DBA's indexes, by mongosh: one named the way the naming rule says, and odm's `idx_ca` dropped and made
    // again by hand with other keys.
    let script = format!(
        "const d = db.getSiblingDB({:?});\n\
         d.order_header.createIndex({{ au: 1 }}, {{ name: 'idx_au' }});\n\
         d.order_header.dropIndex('idx_ca');\n\
         d.order_header.createIndex({{ ca: -1 }}, {{ name: 'idx_ca' }});\n",
        db.name()
    );
    let (code, out) = support::shell::mongosh(&script);
    assert_eq!(code, 0, "{out}");

    // The model no longer declares `idx_st` nor `idx_ca`: stale, to drop.
    let mut spec = order_spec();
    spec.indexes.truncate(1);
    let report = SchemaSync::new(db.client())
        .database(db.name())
        .spec(spec.clone())
        .mode(SyncMode::Apply)
        .stale_indexes(StaleHandling::Drop)
        .await
        .expect("apply, stale indexes dropped");
    let mut kinds: Vec<&str> = report.plan.actions.iter().map(Action::kind).collect();
    kinds.sort_unstable();
    assert_eq!(kinds, ["staleIndex", "unownedIndex", "unownedIndex"], "{report}");
    let text = report.to_string();
    assert!(text.contains("stale owned index idx_st: drop"), "{text}");
    assert!(text.contains("index idx_au { \"au\": 1 } is not odm's (no record of it"), "{text}");
    assert!(text.contains("index idx_ca { \"ca\": -1 } is not odm's: odm recorded idx_ca { \"ca\": 1 }"), "{text}");
    assert!(text.contains("adopt"), "says how to adopt: {text}");
    assert!(report.is_in_sync(), "not odm's is information, not drift: {report}");
    let names = support::server::index_names(&db, "order_header").await;
    assert_eq!(names, ["_id_", "idx_au", "idx_ca", "idx_mi_st_am"], "only odm's stale index dropped");
    assert_eq!(
        support::server::owned_index_names(&db, "order_header").await,
        ["idx_ca", "idx_mi_st_am"],
        "the dropped index's record is gone; the replaced one's stays, and does not match"
    );

    // Adopting, asked for, makes the odm-named ones odm's: then stale, and dropped.
    let adopted = SchemaSync::new(db.client())
        .database(db.name())
        .spec(spec)
        .mode(SyncMode::Apply)
        .stale_indexes(StaleHandling::Drop)
        .adopt_indexes(AdoptIndexes::OdmNamed)
        .await
        .expect("apply, adopting");
    let mut kinds: Vec<&str> = adopted.plan.actions.iter().map(Action::kind).collect();
    kinds.sort_unstable();
    assert_eq!(kinds, ["adoptIndex", "adoptIndex", "staleIndex", "staleIndex"], "{adopted}");
    assert_eq!(support::server::index_names(&db, "order_header").await, ["_id_", "idx_mi_st_am"]);
    assert_eq!(support::server::owned_index_names(&db, "order_header").await, ["idx_mi_st_am"]);
}

/// Syncs that create the same indexes at once agree on one record per index.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_syncs_write_one_record_per_index() {
    let db = odm::testing::database("sync_ownership_race").await;
    let mut tasks = Vec::new();
    for _ in 0..8 {
        let (client, name) = (db.client().clone(), db.name().to_owned());
        tasks.push(tokio::spawn(async move {
            SchemaSync::new(&client).database(name).spec(order_spec()).mode(SyncMode::Apply).await
        }));
    }
    for t in tasks {
        t.await.expect("task").and_then(|r| r.require_in_sync()).expect("every concurrent sync succeeds");
    }
    let records = support::server::index_records(&db).await;
    assert_eq!(records.len(), 2, "{records:?}");
    assert_eq!(support::server::owned_index_names(&db, "order_header").await, ["idx_ca", "idx_mi_st_am"]);
}

#[tokio::test]
async fn capped_collections_are_created_capped_and_mismatches_reported() {
    let db = odm::testing::database("sync_capped").await;
    let mut spec = ModelSpec::of::<Order>();
    spec.collection = "log_order_event".into();
    spec.capped = Some(odm::model::Capped { size: 1 << 20, max: Some(1000) });
    support::setup::sync_spec(&db, spec.clone()).await;
    let opts = support::server::collection_options(&db, "log_order_event").await;
    assert_eq!(opts.get_bool("capped").ok(), Some(true));
    assert!(SchemaSync::new(db.client())
        .database(db.name())
        .spec(spec.clone())
        .plan()
        .await
        .expect("plan")
        .is_in_sync());
    spec.capped = Some(odm::model::Capped { size: 1 << 20, max: Some(50) });
    let plan = SchemaSync::new(db.client()).database(db.name()).spec(spec).plan().await.expect("plan");
    assert_eq!(plan.actions.iter().map(Action::kind).collect::<Vec<_>>(), ["cappedMismatch"]);
}

#[tokio::test]
async fn plan_exports_as_mongosh_and_json() {
    let db = odm::testing::database("sync_export").await;
    let plan = SchemaSync::new(db.client()).database(db.name()).spec(order_spec()).plan().await.expect("plan");
    let script = plan.to_mongosh();
    // The collection, two indexes, and the record of each index odm creates.
    assert_eq!(script.matches(&format!("\nodmStep(\"{}\", ", db.name())).count(), 5, "{script}");
    assert_eq!(script.matches("{\"update\":\"odm_index\",").count(), 2, "{script}");
    assert!(script.contains("EJSON.deserialize(command, { relaxed: false })"), "types kept: {script}");
    assert!(script.contains("\"createIndexes\":\"order_header\""), "{script}");
    assert!(script.contains("\"expireAfterSeconds\":{\"$numberLong\":\"3600\"}"), "exact types: {script}");
    // Key order is the index: it must survive the export, and the command name must come first.
    assert!(
        script.contains(
            "\"key\":{\"mi\":{\"$numberInt\":\"1\"},\"st\":{\"$numberInt\":\"1\"},\"am\":{\"$numberInt\":\"-1\"}}"
        ),
        "{script}"
    );
    assert!(script.contains("{\"create\":\"order_header\","), "{script}");
    let json = plan.to_json();
    let items = json.as_array().expect("array");
    assert_eq!(items.len(), 3);
    assert_eq!(items[0]["kind"], "createCollection");
    assert_eq!(items[0]["db"], db.name());
    assert!(plan.to_string().contains("create index idx_mi_st_am { \"mi\": 1, \"st\": 1, \"am\": -1 }"), "{plan}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sixteen_concurrent_syncs_converge_to_one_state() {
    let db = odm::testing::database("sync_race").await;
    let name = db.name().to_owned();
    let mut tasks = Vec::new();
    for _ in 0..16 {
        let client = db.client().clone();
        let name = name.clone();
        tasks.push(tokio::spawn(async move {
            SchemaSync::new(&client).database(name).spec(order_spec()).mode(SyncMode::Apply).await
        }));
    }
    for t in tasks {
        let report = t.await.expect("task").expect("every concurrent sync succeeds");
        assert!(report.remaining().next().is_none(), "{report}");
    }
    let live = support::server::live_indexes(&db, "order_header").await;
    assert_eq!(live.len(), 3, "no duplicate indexes: {live:?}");
    SchemaSync::new(db.client())
        .database(db.name())
        .spec(order_spec())
        .mode(SyncMode::Verify)
        .await
        .and_then(|r| r.require_in_sync())
        .expect("in sync");
}

#[tokio::test]
async fn steady_state_sync_only_reads_one_list_per_database_and_collection() {
    let db = odm::testing::database("sync_cost").await;
    let mut spec2 = order_spec();
    spec2.collection = "order_detail".into();
    SchemaSync::new(db.client())
        .database(db.name())
        .spec(order_spec())
        .spec(spec2.clone())
        .await
        .and_then(|r| r.require_in_sync())
        .expect("setup");
    // A collection no model names: the sync must not even list it.
    db.db().create_collection("not_a_model").validator(doc! { "x": { "$exists": true } }).await.expect("other");

    let (client, seen) = support::commands::recording_client().await;
    let report =
        SchemaSync::new(&client).database(db.name()).spec(order_spec()).spec(spec2).await.expect("steady state");
    assert!(report.plan.actions.is_empty(), "{report}");
    let mut names = seen.names();
    names.retain(|n| !["hello", "isMaster", "ismaster", "buildInfo", "endSessions"].contains(&n.as_str()));
    // The listIndexes are sent concurrently, so they may start in any order: compare counts, not order.
    names.sort();
    assert_eq!(names, ["listCollections", "listIndexes", "listIndexes"], "reads only, one per database and collection");
    let mut listed: Vec<String> = seen
        .replies()
        .iter()
        .filter(|(name, _)| name == "listCollections")
        .flat_map(|(_, reply)| {
            let batch = reply.get_document("cursor").and_then(|c| c.get_array("firstBatch")).expect("firstBatch");
            batch.iter().filter_map(|c| c.as_document()?.get_str("name").ok().map(str::to_owned)).collect::<Vec<_>>()
        })
        .collect();
    listed.sort();
    assert_eq!(listed, ["order_detail", "order_header"], "only the models' collections are listed");
}

/// Another model on `order_header`: a sync given both must refuse before sending anything.
#[derive(Model, Serialize, Deserialize, Debug, Clone)]
#[odm(collection = "order_header")]
struct OrderCopy {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "nt")]
    note: String,
}

#[tokio::test]
async fn two_models_on_one_collection_are_refused_before_anything_is_sent() {
    let db = odm::testing::database("sync_owner").await;
    let (client, seen) = support::commands::recording_client().await;
    for mode in [SyncMode::Verify, SyncMode::CreateMissing, SyncMode::Apply] {
        let sync = || SchemaSync::new(&client).database(db.name()).model::<Order>().model::<OrderCopy>().mode(mode);
        let err = sync().await.expect_err("two owners");
        let odm::Error::SharedCollection { namespace, first, second } = &err else { panic!("{err}") };
        assert_eq!(namespace, &format!("{}.order_header", db.name()));
        assert_eq!((*first, *second), ("it::sync::Order", "it::sync::OrderCopy"));
        let text = err.to_string();
        assert!(text.contains("`it::sync::Order` and `it::sync::OrderCopy` both name the collection"), "{text}");
        assert!(matches!(sync().plan().await, Err(odm::Error::SharedCollection { .. })));
    }
    let twice = SchemaSync::new(&client).database(db.name()).model::<Order>().model::<Order>().await;
    assert!(twice.expect_err("twice").to_string().contains("`it::sync::Order` is given to one sync twice"));
    assert!(seen.names().is_empty(), "nothing was sent: {:?}", seen.names());
    assert!(db.list_collection_names().await.expect("names").is_empty());
}

/// The messages of the sync's `WARN` events (target `odm::sync`; the connection checklist's, `odm::connection`, depend
/// on the server and are tested in connection.rs) on the thread that captures them ([`Warnings::capture`]).
#[derive(Clone, Default)]
struct Warnings(Arc<Mutex<Vec<String>>>);

thread_local! {
    static CAPTURING: std::cell::RefCell<Option<Warnings>> = const { std::cell::RefCell::new(None) };
}

impl Warnings {
    /// Collects this thread's warnings until the guard drops. Goes through one global subscriber, installed by the
    /// first capture: a scoped one (`set_default`) can lose the warning, since another test's thread may reach its
    /// callsite first, while no subscriber wants it, and cache it as never enabled.
    fn capture(&self) -> Capture {
        static INSTALLED: std::sync::Once = std::sync::Once::new();
        INSTALLED.call_once(|| tracing::subscriber::set_global_default(Forward).expect("no other global subscriber"));
        CAPTURING.with(|c| *c.borrow_mut() = Some(self.clone()));
        Capture
    }
}

/// Stops [`Warnings::capture`] when dropped.
struct Capture;

impl Drop for Capture {
    fn drop(&mut self) {
        CAPTURING.with(|c| *c.borrow_mut() = None);
    }
}

/// The global subscriber: hands `WARN` events to the capturing thread's [`Warnings`], and tells every callsite that
/// its interest may change (`sometimes`), so none is cached as never enabled. A minimal subscriber: no spans.
struct Forward;

impl tracing::Subscriber for Forward {
    fn register_callsite(&self, _: &'static tracing::Metadata<'static>) -> tracing::subscriber::Interest {
        tracing::subscriber::Interest::sometimes()
    }
    fn enabled(&self, m: &tracing::Metadata<'_>) -> bool {
        *m.level() == tracing::Level::WARN && m.target() == "odm::sync" && CAPTURING.with(|c| c.borrow().is_some())
    }
    fn new_span(&self, _: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        tracing::span::Id::from_u64(1)
    }
    fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}
    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
    fn event(&self, e: &tracing::Event<'_>) {
        struct Message<'a>(&'a mut String);
        impl tracing::field::Visit for Message<'_> {
            fn record_debug(&mut self, f: &tracing::field::Field, v: &dyn std::fmt::Debug) {
                if f.name() == "message" {
                    self.0.push_str(&format!("{v:?}"));
                }
            }
        }
        let mut text = String::new();
        e.record(&mut Message(&mut text));
        CAPTURING.with(|c| {
            if let Some(w) = &*c.borrow() {
                w.0.lock().unwrap().push(text);
            }
        });
    }
    fn enter(&self, _: &tracing::span::Id) {}
    fn exit(&self, _: &tracing::span::Id) {}
}

#[tokio::test]
async fn a_model_without_a_database_and_a_sync_out_of_time_are_typed_errors() {
    let db = odm::testing::database("sync_typed_errors").await;
    let err = SchemaSync::new(db.client()).spec(ModelSpec::of::<Order>()).plan().await.expect_err("no database");
    // A sync names a model by its full Rust type name (`it::sync::Order`).
    assert!(matches!(err, odm::Error::NoDatabase { model } if model.ends_with("::Order")), "{err}");
    assert!(err.model().is_some_and(|m| m.ends_with("::Order")), "{err}");
    // A server that accepts connections and never answers (a listener nobody reads from): the sync waits for it
    // until its bound, whatever the speed of the machine, and the bound and what it bounded are in the error.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").expect("a local port");
    let uri = format!("mongodb://{}/?directConnection=true", silent.local_addr().expect("its address"));
    let client = odm::mongodb::Client::with_uri_str(uri).await.expect("a client");
    let bound = Duration::from_millis(50);
    let sync = || SchemaSync::new(&client).database(db.name()).spec(ModelSpec::of::<Order>()).timeout(bound);
    let err = sync().plan().await.expect_err("plan out of time");
    assert!(matches!(&err, odm::Error::Timeout { waited: Waited::Plan, limit } if *limit == bound), "{err}");
    let err = sync().mode(SyncMode::Apply).await.expect_err("sync out of time");
    assert!(matches!(&err, odm::Error::Timeout { waited: Waited::Sync, limit } if *limit == bound), "{err}");
    assert!(err.to_string().contains("did not finish within"), "{err}");
    assert_eq!(err.model(), None);
}
