//! Collections named at run time, against the real server: one collection per month (and per tenant), each
//! synced with the model's validator and indexes; the live instances listed exactly; expired periods dropped and
//! nothing else, also when two processes drop at once; bad keys refused before anything is sent.

use crate::support;

use odm::bson::{doc, oid::ObjectId, DateTime, Document};
use odm::collection::{drop_expired, expired, instances, NotACollection};
use odm::error::Invalid;
use odm::{Collection, Model, SchemaSync, SyncMode};
use serde::{Deserialize, Serialize};

/// A log kept one collection per month, the latest three months.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "log_app_event_{yyyymm}", keep_periods = 3, closed, index(keys = "created"))]
struct Event {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "k")]
    kind: String,
    #[serde(rename = "ca")]
    created: DateTime,
}

/// Orders kept one collection per tenant.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "shop_order_{name}")]
struct TenantOrder {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "t")]
    total: i64,
}

/// A moment in the middle of a month.
fn mid(year: i32, month: u8) -> DateTime {
    DateTime::builder().year(year).month(month).day(15).hour(12).build().expect("a date")
}

fn event(at: DateTime) -> Event {
    Event { id: ObjectId::new(), kind: "login".into(), created: at }
}

/// Syncs the instance `key` names (creating it when missing), and checks it is in line afterwards.
async fn sync_instance<M: Model>(db: &odm::testing::TestDatabase, key: impl Into<odm::template::InstanceKey>) {
    let sync = SchemaSync::new(db.client()).database(db.name()).instance::<M>(key).expect("a key");
    sync.await.expect("sync").require_in_sync().expect("in sync");
}

/// The collections of `db` but odm's own metadata (`odm_index`).
async fn names(db: &odm::mongodb::Database) -> Vec<String> {
    let mut names = db.list_collection_names().await.expect("names");
    names.retain(|n| !n.starts_with("odm_"));
    names.sort();
    names
}

#[tokio::test]
async fn each_period_is_its_own_synced_collection() {
    let db = odm::testing::database("inst_sync").await;
    for month in [10, 11, 12] {
        sync_instance::<Event>(&db, mid(2026, month)).await;
    }
    assert_eq!(names(&db).await, ["log_app_event_202610", "log_app_event_202611", "log_app_event_202612"]);
    for name in ["log_app_event_202610", "log_app_event_202612"] {
        assert_eq!(support::server::live_validator(&db, name).await, Event::validator(), "{name}");
        assert!(support::server::index_names(&db, name).await.contains(&"idx_ca".to_owned()), "{name}");
    }

    // Reads and writes go to the period's collection, typed like any other.
    let december = Collection::<Event>::instance(&db, mid(2026, 12)).expect("an instance");
    assert_eq!(december.name(), "log_app_event_202612");
    let e = event(mid(2026, 12));
    december.insert_one(&e).await.expect("insert");
    assert_eq!(december.find_one(Event::fields().id().eq(e.id)).await.expect("find"), Some(e.clone()));
    let november = Collection::<Event>::instance(&db, mid(2026, 11)).expect("an instance");
    assert_eq!(november.count(odm::Filter::everything()).await.expect("count"), 0);

    // A document written around odm into an instance meets the model's validator.
    let raw = db.collection::<Document>("log_app_event_202611");
    let err =
        raw.insert_one(doc! { "_id": ObjectId::new(), "k": 7, "ca": DateTime::now() }).await.expect_err("refused");
    let err = odm::Error::from_write::<Event>(err);
    assert_eq!(err.code(), Some(121), "{err}");
    assert!(err.to_string().contains("Event.kind"), "{err}");
}

#[tokio::test]
async fn a_model_sync_brings_every_live_instance_in_line_and_nothing_else() {
    let db = odm::testing::database("inst_model").await;
    // One instance made around odm, without a validator; look-alikes that are not instances.
    for name in ["log_app_event_202601", "log_app_event_backup", "log_app_event_202613", "log_app_event_2026011"] {
        db.create_collection(name).await.expect("create");
    }
    sync_instance::<Event>(&db, mid(2026, 2)).await;
    let live: Vec<String> = instances::<Event>(&db).await.expect("list").into_iter().map(|i| i.name).collect();
    assert_eq!(live, ["log_app_event_202601", "log_app_event_202602"]);

    // Verify sees the instance made around odm drift; apply brings it in line; the look-alikes are not touched.
    let sync = || SchemaSync::new(db.client()).database(db.name()).model::<Event>();
    let err = sync().mode(SyncMode::Verify).await.expect_err("drift");
    let odm::Error::Drift(plan) = &err else { panic!("{err}") };
    assert!(plan.actions.iter().all(|a| a.namespace().collection == "log_app_event_202601"), "{plan}");
    sync().mode(SyncMode::Apply).await.expect("apply").require_in_sync().expect("in sync");
    assert_eq!(support::server::live_validator(&db, "log_app_event_202601").await, Event::validator());
    sync().mode(SyncMode::Verify).await.expect("verify").require_in_sync().expect("in sync");
    for name in ["log_app_event_backup", "log_app_event_202613", "log_app_event_2026011"] {
        assert_eq!(support::server::collection_options(&db, name).await.get("validator"), None, "{name}");
    }
    // A model sync creates no instance of its own; an instance both named and live is synced once.
    assert_eq!(names(&db).await.len(), 5);
    let both = SchemaSync::new(db.client()).database(db.name()).instance::<Event>(mid(2026, 2)).expect("a key");
    both.model::<Event>().mode(SyncMode::Verify).await.expect("in sync, once").require_in_sync().expect("in sync");
}

#[tokio::test]
async fn expired_periods_are_dropped_and_nothing_else() {
    let db = odm::testing::database("inst_expire").await;
    // Six months created ahead, as a job run before each month turns would (from any moment in July).
    let ahead = SchemaSync::new(db.client()).database(db.name()).periods::<Event>(mid(2026, 7), 6).expect("periods");
    ahead.await.expect("sync").require_in_sync().expect("in sync");
    assert_eq!(instances::<Event>(&db).await.expect("list").len(), 6);
    for name in ["log_app_event_backup", "log_app_event_202607_copy", "log_app_other_202601"] {
        db.create_collection(name).await.expect("create");
    }
    Collection::<Event>::instance(&db, mid(2026, 7))
        .expect("an instance")
        .insert_one(event(mid(2026, 7)))
        .await
        .expect("insert");

    // In mid-December the latest three months are October to December.
    let now = mid(2026, 12);
    let (a, b) = tokio::join!(drop_expired::<Event>(&db, now), drop_expired::<Event>(&db, now));
    let (mut a, mut b) = (a.expect("first").dropped, b.expect("second").dropped);
    a.append(&mut b);
    a.sort();
    a.dedup();
    assert_eq!(a, ["log_app_event_202607", "log_app_event_202608", "log_app_event_202609"]);
    assert_eq!(
        names(&db).await,
        [
            "log_app_event_202607_copy",
            "log_app_event_202610",
            "log_app_event_202611",
            "log_app_event_202612",
            "log_app_event_backup",
            "log_app_other_202601",
        ]
    );
    // Nothing more has expired.
    assert!(drop_expired::<Event>(&db, now).await.expect("again").dropped.is_empty());
}

#[tokio::test]
async fn tenants_are_named_instances_and_bad_keys_fail_before_sending() {
    let db = odm::testing::database("inst_tenant").await;
    sync_instance::<TenantOrder>(&db, "acme").await;
    let acme = Collection::<TenantOrder>::instance(&db, "acme").expect("an instance");
    acme.insert_one(&TenantOrder { id: ObjectId::new(), total: 5 }).await.expect("insert");
    assert_eq!(support::server::live_validator(&db, "shop_order_acme").await, TenantOrder::validator());

    for (key, why) in [("Acme", "contains `A`"), ("a__b", "empty part"), ("", "empty")] {
        let Err(err) = Collection::<TenantOrder>::instance(&db, key) else { panic!("{key:?} accepted") };
        let odm::Error::InvalidOperation { cause: Invalid::Instance(e), .. } = &err else { panic!("{err}") };
        assert_eq!(e.template, "shop_order_{name}");
        assert!(err.to_string().contains(why), "{key:?}: {err}");
    }
    let Err(err) = Collection::<Event>::instance(&db, "acme") else { panic!("a name for a monthly template") };
    assert_eq!(
        err.to_string(),
        "Event: no instance of `log_app_event_{yyyymm}`: the template is per period ({yyyymm}): give a moment, not the \
         name `acme`; nothing was sent"
    );
    assert!(Collection::<TenantOrder>::instance(&db, DateTime::now()).is_err());
    let Err(err) = SchemaSync::new(db.client()).database(db.name()).instance::<support::models::shop::Order>("x")
    else {
        panic!("an instance of a model named once")
    };
    assert!(err.to_string().contains("has no placeholder"), "{err}");
    assert_eq!(names(&db).await, ["shop_order_acme"], "nothing else was created");
}

/// The type `listCollections` gives `name` in `db`.
async fn listed_type(db: &odm::mongodb::Database, name: &str) -> Option<String> {
    use futures_util::TryStreamExt;
    let command = doc! { "listCollections": 1, "filter": { "name": name } };
    let found: Vec<Document> = db.run_cursor_command(command).await.expect("list").try_collect().await.expect("read");
    found.first().map(|c| c.get_str("type").unwrap_or("collection").to_owned())
}

/// A view and a time-series collection named like periods, made by mongosh, are no instances: never listed as
/// such, synced, nor dropped; the listings report them as skipped.
#[tokio::test]
async fn a_view_or_time_series_named_like_a_period_is_never_listed_synced_or_dropped() {
    let db = odm::testing::database("inst_view").await;
    let ahead = SchemaSync::new(db.client()).database(db.name()).periods::<Event>(mid(2026, 7), 2).expect("periods");
    ahead.await.expect("sync").require_in_sync().expect("in sync");
    let (code, out) = support::shell::mongosh(&format!(
        "const d = db.getSiblingDB({:?});\n\
         d.createView('log_app_event_202605', 'log_app_event_202607', [{{ $match: {{ k: 'login' }} }}]);\n\
         d.createCollection('log_app_event_202604', {{ timeseries: {{ timeField: 'ca' }} }});\n",
        db.name()
    ));
    assert_eq!(code, 0, "{out}");
    assert_eq!(listed_type(&db, "log_app_event_202605").await.as_deref(), Some("view"));
    // Some servers keep a time-series collection as a plain one: what listCollections says decides.
    let series_is_plain = listed_type(&db, "log_app_event_202604").await.as_deref() == Some("collection");
    let view = NotACollection { name: "log_app_event_202605".into(), kind: "view".into() };
    let series = NotACollection { name: "log_app_event_202604".into(), kind: "timeseries".into() };
    let (mut skipped, mut live) = (vec![view.clone()], vec!["log_app_event_202607", "log_app_event_202608"]);
    match series_is_plain {
        true => live.insert(0, "log_app_event_202604"),
        false => skipped.insert(0, series.clone()),
    }

    let listed = instances::<Event>(&db).await.expect("list");
    assert_eq!(listed.skipped, skipped);
    assert_eq!(listed.into_iter().map(|i| i.name).collect::<Vec<_>>(), live);

    // A model sync touches neither: no index or validator on the view.
    let sync = || SchemaSync::new(db.client()).database(db.name()).model::<Event>();
    let report = sync().mode(SyncMode::Apply).await.expect("apply");
    let touched: Vec<&str> = report.plan.actions.iter().map(|a| a.namespace().collection.as_str()).collect();
    assert!(!touched.contains(&"log_app_event_202605"), "{report}");
    if !series_is_plain {
        assert!(!touched.contains(&"log_app_event_202604"), "{report}");
    }
    // Naming the view's period explicitly: reported, never synced.
    let named = SchemaSync::new(db.client()).database(db.name()).instance::<Event>(mid(2026, 5)).expect("a key");
    let odm::Error::Drift(plan) = named.mode(SyncMode::Verify).await.expect_err("a view is drift") else { panic!() };
    assert_eq!(plan.actions.iter().map(|a| a.kind()).collect::<Vec<_>>(), ["notACollection"], "{plan}");
    assert!(plan.to_string().contains("a view, not a collection"), "{plan}");

    // In mid-December, keeping three months, every one of these has expired; only collections are dropped.
    let now = mid(2026, 12);
    let would = expired::<Event>(&db, now).await.expect("expired");
    assert_eq!(would.skipped, skipped);
    assert_eq!(support::server::owned_index_names(&db, "log_app_event_202607").await, ["idx_ca"]);
    let dropped = drop_expired::<Event>(&db, now).await.expect("drop");
    assert_eq!(dropped.dropped, live);
    // odm's records of a dropped period's indexes go with it.
    assert!(support::server::index_records(&db).await.is_empty(), "{:?}", support::server::index_records(&db).await);
    assert_eq!(dropped.skipped, skipped);
    assert_eq!(listed_type(&db, "log_app_event_202605").await.as_deref(), Some("view"), "the view stays");
    let (code, out) =
        support::shell::mongosh(&format!("print(db.getSiblingDB({:?}).getCollectionInfos({{ name: 'log_app_event_202605' }})[0].options.pipeline.length);", db.name()));
    assert_eq!((code, out.trim()), (0, "1"), "the view's definition is intact");
    if !series_is_plain {
        assert_eq!(listed_type(&db, "log_app_event_202604").await.as_deref(), Some("timeseries"), "the series stays");
    }
}
