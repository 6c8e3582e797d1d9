//! Index declarations on models: the specs the derive generates (stored keys, default names, options), and the
//! round trip through the real server (created by sync, then recognised as in sync: no rebuild loop).

use odm::bson::{doc, oid::ObjectId, DateTime};
use odm::{index::IndexSpec, Embedded, Model, SchemaSync, SyncMode};
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize, Debug, Clone)]
pub struct Item {
    #[serde(rename = "n")]
    name: String,
    #[serde(rename = "q")]
    quantity: i32,
}

#[derive(Embedded, Serialize, Deserialize, Debug, Clone)]
pub struct Point {
    #[serde(rename = "type")]
    #[odm(not_a_date)]
    kind: String,
    #[serde(rename = "coordinates")]
    #[odm(max_items = 2)]
    coordinates: Vec<f64>,
}

/// The ESR example: merchant and status (equality), newest first (sort), amount (range).
// clippy's `duplicated_attributes` reads the second `unique` flag (any flag or number option repeated across
// `#[odm(index(...))]` attributes) as a duplicate attribute.
#[allow(clippy::duplicated_attributes)]
#[derive(Model, Serialize, Deserialize, Debug, Clone)]
#[odm(collection = "order_header", max_indexes = 5)]
#[odm(index(keys = "merchant, status, -created_at, amount"))]
#[odm(index(keys = "number", unique, name = "idx_order_no"))]
#[odm(index(keys = "items.name", partial = "status = 'paid, in full', amount >= 10"))]
#[odm(index(keys = "email", unique, partial = "email exists", collation(locale = "en", strength = 2)))]
#[odm(index(keys = "created_at", ttl = 2592000, hidden))]
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
    created_at: DateTime,
    #[serde(rename = "no")]
    #[odm(not_a_date)]
    number: String,
    #[serde(rename = "em", skip_serializing_if = "Option::is_none")]
    email: Option<String>,
    #[serde(rename = "it")]
    #[odm(max_items = 30)]
    items: Vec<Item>,
}

#[test]
fn declared_indexes_become_named_specs_in_stored_keys() {
    assert_eq!(Order::SHARD_KEY, None, "no shard key declared");
    let specs = Order::indexes();
    let docs: Vec<_> = specs.iter().map(IndexSpec::to_document).collect();
    assert_eq!(
        docs,
        vec![
            doc! { "key": { "mi": 1, "st": 1, "ca": -1, "am": 1 }, "name": "idx_mi_st_ca_am" },
            doc! { "key": { "no": 1 }, "name": "idx_order_no", "unique": true },
            doc! { "key": { "it.n": 1 }, "name": "idx_it_n", "partialFilterExpression": { "st": { "$eq": "paid, in full" }, "am": { "$gte": 10_i64 } } },
            doc! {
                "key": { "em": 1 }, "name": "idx_em", "unique": true,
                "partialFilterExpression": { "em": { "$exists": true } },
                "collation": { "locale": "en", "strength": 2 },
            },
            doc! { "key": { "ca": 1 }, "name": "idx_ca", "hidden": true, "expireAfterSeconds": 2_592_000_i64 },
        ]
    );
}

/// A log collection: capped.
#[derive(Model, Serialize, Deserialize, Debug, Clone)]
#[odm(collection = "log_order_event", capped(size = 1048576, max = 10000))]
#[odm(index(keys = "order"))]
struct OrderEvent {
    #[serde(rename = "o")]
    order: ObjectId,
    #[serde(rename = "m")]
    message: String,
}

/// A session that expires at the earliest of its deadlines: a TTL index on an array of dates.
#[derive(Model, Serialize, Deserialize, Debug, Clone)]
#[odm(collection = "log_user_session")]
#[odm(index(keys = "deadlines", ttl = 0))]
struct UserSession {
    #[serde(rename = "dl")]
    #[odm(max_items = 4)]
    deadlines: Vec<DateTime>,
}

/// Search and geo.
#[derive(Model, Serialize, Deserialize, Debug, Clone)]
#[odm(collection = "shop_store")]
#[odm(index(keys = "title:text, body:text", weights = "title:10", default_language = "english"))]
#[odm(index(keys = "location:2dsphere"))]
#[odm(index(keys = "owner:hashed"))]
struct Store {
    #[serde(rename = "t")]
    title: String,
    #[serde(rename = "b")]
    body: String,
    #[serde(rename = "l")]
    location: Point,
    #[serde(rename = "o")]
    owner: ObjectId,
}

#[test]
fn capped_text_geo_hashed() {
    assert_eq!(OrderEvent::CAPPED, Some(odm::model::Capped { size: 1_048_576, max: Some(10_000) }));
    let docs: Vec<_> = Store::indexes().iter().map(IndexSpec::to_document).collect();
    assert_eq!(
        docs,
        vec![
            doc! { "key": { "t": "text", "b": "text" }, "name": "idx_t_b", "weights": { "t": 10 }, "default_language": "english" },
            doc! { "key": { "l": "2dsphere" }, "name": "idx_l" },
            doc! { "key": { "o": "hashed" }, "name": "idx_o" },
        ]
    );
}

#[tokio::test]
async fn synced_indexes_are_recognised_as_in_sync() {
    let db = odm::testing::database("indexes").await;
    let sync = || {
        SchemaSync::new(db.client()).database(db.name()).model::<Order>().model::<OrderEvent>().model::<UserSession>()
    };
    let report = sync().await.expect("create");
    assert!(report.remaining().next().is_none(), "{report}");
    // The server took the TTL on an array of dates as declared.
    let listed = db.run_command(doc! { "listIndexes": "log_user_session" }).await.expect("listIndexes");
    let batch = listed.get_document("cursor").and_then(|c| c.get_array("firstBatch")).expect("firstBatch");
    let ttl = batch
        .iter()
        .filter_map(|i| i.as_document())
        .find(|i| i.get_str("name").ok() == Some("idx_dl"))
        .unwrap_or_else(|| panic!("no idx_dl in {batch:?}"));
    assert_eq!(ttl.get_document("key").expect("key"), &doc! { "dl": 1 });
    let seconds = ttl.get("expireAfterSeconds").and_then(|v| v.as_i64().or_else(|| v.as_i32().map(i64::from)));
    assert_eq!(seconds, Some(0), "{ttl}");
    // The server normalises what it lists (collation expanded, numbers widened): still in sync, no rebuild loop.
    let plan = sync().plan().await.expect("plan");
    assert!(plan.actions.is_empty(), "{plan}");
    sync().mode(SyncMode::Verify).await.and_then(|r| r.require_in_sync()).expect("verify");
}

#[tokio::test]
async fn index_types_the_server_refuses_are_reported_not_fatal() {
    let db = odm::testing::database("indexes_kinds").await;
    let sync = || SchemaSync::new(db.client()).database(db.name()).model::<Store>();
    let report = sync().await.expect("a refused index does not abort the sync");
    let plan = sync().plan().await.expect("plan");
    for (action, outcome) in report.plan.actions.iter().zip(&report.outcomes) {
        let odm::sync::plan::Action::CreateIndex { spec, .. } = action else { continue };
        let still_missing = plan
            .actions
            .iter()
            .any(|a| matches!(a, odm::sync::plan::Action::CreateIndex { spec: s, .. } if s.name == spec.name));
        match outcome {
            // Created: the next plan recognises it (text keys are listed as `_fts`/`_ftsx`).
            odm::sync::Outcome::Done => assert!(!still_missing, "{} not recognised after creation:\n{plan}", spec.name),
            // SecantusDB has no text or hashed indexes: refused with the server's reason, and still reported.
            odm::sync::Outcome::Refused(why) => {
                assert!(why.contains("67") && why.contains("not supported"), "{why}");
                assert!(still_missing, "a refused index stays in the plan");
            }
            other => panic!("{}: {other:?}", spec.name),
        }
    }
}

/// The ESR example's query, declared as an access pattern: the derive builds its ESR index.
#[derive(Model, Serialize, Deserialize, Debug, Clone)]
#[odm(collection = "order_payment")]
#[odm(query(eq = "merchant, status", sort = "-created_at", range = "amount"))]
// Served by the declared index below (equality fields in another order, sort direction reversed): no new index.
#[odm(query(eq = "status, merchant", sort = "paid_at"))]
#[odm(index(keys = "merchant, status, -paid_at"))]
struct Payment {
    #[serde(rename = "mi")]
    merchant: String,
    #[serde(rename = "st")]
    status: String,
    #[serde(rename = "ca")]
    created_at: DateTime,
    #[serde(rename = "pa")]
    paid_at: DateTime,
    #[serde(rename = "am")]
    amount: i64,
}

#[test]
fn access_patterns_get_esr_indexes_unless_one_serves_them() {
    let docs: Vec<_> = Payment::indexes().iter().map(IndexSpec::to_document).collect();
    assert_eq!(
        docs,
        vec![
            doc! { "key": { "mi": 1, "st": 1, "pa": -1 }, "name": "idx_mi_st_pa" },
            doc! { "key": { "mi": 1, "st": 1, "ca": -1, "am": 1 }, "name": "idx_mi_st_ca_am" },
        ]
    );
}
