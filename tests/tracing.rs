//! Every operation odm sends is a `tracing` span (target `odm::op`) against a real server: its names, its counts,
//! the server's code when it fails, a sync's commands; and no document value in any of it unless values are asked
//! for.

mod support;

use odm::bson::oid::ObjectId;
use odm::{Collection, Model, SchemaSync, SyncMode, Update, Upgrade, Version};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, Once};
use support::models::shop::{order, Order};

/// One captured span: its name, target and fields (as recorded so far, the last value of each standing).
#[derive(Clone, Debug, Default)]
struct Captured {
    target: String,
    fields: HashMap<String, String>,
}

impl Captured {
    fn get(&self, field: &str) -> Option<&str> {
        self.fields.get(field).map(String::as_str)
    }
}

/// Everything the subscriber saw: spans by id, and events (target, fields).
#[derive(Default)]
struct Seen {
    spans: HashMap<u64, Captured>,
    events: Vec<Captured>,
}

static SEEN: Mutex<Option<Seen>> = Mutex::new(None);

/// Installs the capturing subscriber for the whole binary, once, before any test reaches a callsite (each test
/// calls this first): a callsite first reached with no subscriber would be cached as never enabled.
fn install() {
    static INSTALLED: Once = Once::new();
    INSTALLED.call_once(|| {
        *SEEN.lock().unwrap() = Some(Seen::default());
        tracing::subscriber::set_global_default(Capture).expect("no other global subscriber");
    });
}

/// The `odm::op` spans about database `db` (each test has its own database, so tests do not see each other's).
fn spans_of(db: &str) -> Vec<Captured> {
    let seen = SEEN.lock().unwrap();
    let seen = seen.as_ref().expect("installed");
    let mut out: Vec<(u64, Captured)> = seen
        .spans
        .iter()
        .filter(|(_, s)| s.target == "odm::op" && s.get("db") == Some(db))
        .map(|(id, s)| (*id, s.clone()))
        .collect();
    out.sort_by_key(|(id, _)| *id);
    out.into_iter().map(|(_, s)| s).collect()
}

/// Everything captured, spans and events, as text: where a value that must not be traced is looked for.
fn all_text() -> String {
    let seen = SEEN.lock().unwrap();
    let seen = seen.as_ref().expect("installed");
    seen.spans.values().chain(&seen.events).map(|c| format!("{} {:?}\n", c.target, c.fields)).collect()
}

/// A minimal subscriber keeping every span's fields and every event from odm.
struct Capture;

struct Fields<'a>(&'a mut HashMap<String, String>);

impl tracing::field::Visit for Fields<'_> {
    fn record_str(&mut self, f: &tracing::field::Field, v: &str) {
        self.0.insert(f.name().to_owned(), v.to_owned());
    }
    fn record_u64(&mut self, f: &tracing::field::Field, v: u64) {
        self.0.insert(f.name().to_owned(), v.to_string());
    }
    fn record_i64(&mut self, f: &tracing::field::Field, v: i64) {
        self.0.insert(f.name().to_owned(), v.to_string());
    }
    fn record_f64(&mut self, f: &tracing::field::Field, v: f64) {
        self.0.insert(f.name().to_owned(), v.to_string());
    }
    fn record_debug(&mut self, f: &tracing::field::Field, v: &dyn std::fmt::Debug) {
        self.0.insert(f.name().to_owned(), format!("{v:?}"));
    }
}

impl tracing::Subscriber for Capture {
    fn enabled(&self, m: &tracing::Metadata<'_>) -> bool {
        m.target().starts_with("odm")
    }
    fn new_span(&self, attrs: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        let id = NEXT.fetch_add(1, Ordering::Relaxed);
        let mut captured = Captured { target: attrs.metadata().target().to_owned(), ..Default::default() };
        attrs.record(&mut Fields(&mut captured.fields));
        SEEN.lock().unwrap().as_mut().expect("installed").spans.insert(id, captured);
        tracing::span::Id::from_u64(id)
    }
    fn record(&self, id: &tracing::span::Id, values: &tracing::span::Record<'_>) {
        let mut seen = SEEN.lock().unwrap();
        if let Some(span) = seen.as_mut().expect("installed").spans.get_mut(&id.into_u64()) {
            values.record(&mut Fields(&mut span.fields));
        }
    }
    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
    fn event(&self, e: &tracing::Event<'_>) {
        let mut captured = Captured { target: e.metadata().target().to_owned(), ..Default::default() };
        e.record(&mut Fields(&mut captured.fields));
        SEEN.lock().unwrap().as_mut().expect("installed").events.push(captured);
    }
    fn enter(&self, _: &tracing::span::Id) {}
    fn exit(&self, _: &tracing::span::Id) {}
}

/// The last span of `command` about `collection`.
fn last<'a>(spans: &'a [Captured], collection: &str, command: &str) -> &'a Captured {
    spans
        .iter()
        .rev()
        .find(|s| s.get("collection") == Some(collection) && s.get("command") == Some(command))
        .unwrap_or_else(|| panic!("no `{command}` span on `{collection}` in {spans:#?}"))
}

#[tokio::test]
async fn reads_and_writes_are_spans_with_their_counts_and_the_server_code_of_a_failure() {
    install();
    let db = odm::testing::database("tracing_ops").await;
    let name = db.name().to_owned();
    let orders = Collection::<Order>::new(&db);
    let f = Order::fields();

    let first = order(10);
    orders.insert_one(&first).await.unwrap();
    orders.insert_many([order(20), order(30)]).await.unwrap();
    let found = orders.find(f.total().gte(20)).await.unwrap();
    assert_eq!(found.len(), 2);
    let updated = orders.update_many(f.total().gte(20), Update::new().inc(f.total(), 1)).await.unwrap();
    assert_eq!((updated.matched_count, updated.modified_count), (2, 2));
    let nothing = orders.update_one(f.total().eq(999), Update::new().inc(f.total(), 1)).await.unwrap();
    assert_eq!(nothing.matched_count, 0);
    // The same `_id` again: the server refuses it with DuplicateKey.
    let err = orders.insert_one(&first).await.expect_err("duplicate key");
    assert_eq!(err.code(), Some(11000), "{err}");
    assert_eq!(orders.delete_many(f.total().gte(0)).await.unwrap(), 3);

    let spans = spans_of(&name);
    let inserts: Vec<&Captured> = spans.iter().filter(|s| s.get("command") == Some("insert")).collect();
    assert_eq!(inserts.len(), 3, "{inserts:#?}");
    assert_eq!(inserts[0].get("inserted"), Some("1"));
    assert_eq!(inserts[1].get("inserted"), Some("2"));
    assert_eq!(inserts[2].get("inserted"), None, "a refused insert inserted nothing");
    assert_eq!(inserts[2].get("error_code"), Some("11000"));
    assert_eq!(inserts[2].get("error_name"), Some("DuplicateKey"));
    for s in &spans {
        assert_eq!(s.get("collection"), Some("shop_order"), "{s:?}");
        assert!(s.get("duration_ms").is_some_and(|d| d.parse::<f64>().is_ok()), "every span records its time: {s:?}");
    }

    let find = last(&spans, "shop_order", "find");
    assert_eq!(find.get("returned"), Some("2"));
    let updates: Vec<&Captured> = spans.iter().filter(|s| s.get("command") == Some("update")).collect();
    assert_eq!(updates.len(), 2, "{updates:#?}");
    assert_eq!((updates[0].get("matched"), updates[0].get("modified")), (Some("2"), Some("2")));
    assert_eq!((updates[1].get("matched"), updates[1].get("modified")), (Some("0"), Some("0")));
    assert_eq!(updates[1].get("error_code"), None);
    assert_eq!(last(&spans, "shop_order", "delete").get("deleted"), Some("3"));
}

/// A model of the same collection that stores the total as text, as an older or foreign program might: the
/// collection's validator (made from [`Order`]) refuses its writes.
#[derive(Model, serde::Serialize, serde::Deserialize)]
#[odm(collection = "shop_order")]
struct TextTotal {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "t")]
    total: String,
}

#[tokio::test]
async fn a_validator_refusal_carries_code_121_and_a_bulk_write_its_counts() {
    install();
    let db = odm::testing::database("tracing_refused").await;
    let name = db.name().to_owned();
    odm::collection::create_collection::<Order>(&db).await.unwrap();
    let err = Collection::<TextTotal>::new(&db)
        .insert_one(TextTotal { id: ObjectId::new(), total: "ten".into() })
        .await
        .expect_err("the validator refuses a text total");
    assert_eq!(err.code(), Some(121), "{err}");
    let done = Collection::<Order>::new(&db).bulk().insert(order(1)).insert(order(2)).await.unwrap();
    assert_eq!(done.inserted, 2);

    let spans = spans_of(&name);
    let create = last(&spans, "shop_order", "create");
    assert_eq!(create.get("error_code"), None, "{create:?}");
    let inserts: Vec<&Captured> = spans.iter().filter(|s| s.get("command") == Some("insert")).collect();
    assert_eq!(inserts.len(), 2, "{inserts:#?}");
    assert_eq!(inserts[0].get("error_code"), Some("121"));
    assert_eq!(inserts[0].get("error_name"), Some("DocumentValidationFailure"));
    assert_eq!(inserts[1].get("inserted"), Some("2"), "the bulk write's one command: {:?}", inserts[1]);
}

/// An item with a unique index, for a sync that creates a collection and an index.
#[derive(Model, serde::Serialize, serde::Deserialize)]
#[odm(collection = "shop_item", index(keys = "sku", unique))]
struct Item {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "sku")]
    sku: String,
}

#[tokio::test]
async fn a_sync_traces_what_it_reads_and_each_command_it_runs() {
    install();
    let db = odm::testing::database("tracing_sync").await;
    let name = db.name().to_owned();
    let report = SchemaSync::new(db.client()).database(&name).model::<Item>().mode(SyncMode::Apply).await.unwrap();
    assert!(report.is_in_sync(), "{report}");
    let spans = spans_of(&name);
    let commands: Vec<&str> = spans.iter().filter_map(|s| s.get("command")).collect();
    // The `update` is odm's record of the index it created (`odm_index`).
    assert_eq!(commands, ["listCollections", "create", "createIndexes", "update"], "{spans:#?}");
    assert_eq!(last(&spans, "shop_item", "create").get("error_code"), None);
    assert!(last(&spans, "shop_item", "createIndexes").get("duration_ms").is_some());
    // Verify reads again: one listCollections, one listIndexes of the existing collection, nothing else.
    let verified = SchemaSync::new(db.client()).database(&name).model::<Item>().mode(SyncMode::Verify).await;
    verified.unwrap().require_in_sync().unwrap();
    let spans = spans_of(&name);
    let commands: Vec<&str> = spans.iter().skip(4).filter_map(|s| s.get("command")).collect();
    assert_eq!(commands, ["listCollections", "listIndexes"], "{spans:#?}");
}

#[tokio::test]
async fn a_transaction_traces_its_start_and_commit_with_the_attempt() {
    install();
    let db = odm::testing::database("tracing_transaction").await;
    if !support::server::runs_transactions(db.client()).await {
        return;
    }
    odm::collection::create_collection::<Order>(&db).await.unwrap();
    let orders = Collection::<Order>::new(&db);
    odm::Transaction::new(db.client())
        .run(|s| {
            let orders = orders.with_session(&s);
            async move { orders.insert_one(order(5)).await.map(drop) }
        })
        .await
        .unwrap();
    let seen = SEEN.lock().unwrap();
    let spans: Vec<&Captured> = seen.as_ref().unwrap().spans.values().filter(|s| s.target == "odm::op").collect();
    for command in ["startTransaction", "commitTransaction"] {
        let s = spans.iter().find(|s| s.get("command") == Some(command)).unwrap_or_else(|| panic!("{command}"));
        assert_eq!(s.get("attempt"), Some("1"), "{s:?}");
    }
}

/// By default no filter, update or document value is in any span or event; once values are asked for, each
/// operation's body is one `TRACE` event (target `odm::op::values`), and still in no span field.
#[tokio::test]
async fn values_are_traced_only_when_asked_for() {
    install();
    assert!(std::env::var_os("ODM_TRACE_VALUES").is_none(), "run this test without ODM_TRACE_VALUES");
    let db = odm::testing::database("tracing_values").await;
    let orders = Collection::<Order>::new(&db);
    let f = Order::fields();
    let quiet = "quiet-9c1e4b7d";
    orders.insert_one(Order { note: Some(quiet.into()), ..order(1) }).await.unwrap();
    let found = orders.find(f.note().eq(quiet.to_owned())).await.unwrap();
    assert_eq!(found.len(), 1);
    orders.update_one(f.note().eq(quiet.to_owned()), Update::new().set(f.total(), 77_123_456)).await.unwrap();
    let text = all_text();
    assert!(!text.contains(quiet), "a value was traced by default:\n{text}");
    assert!(!text.contains("77123456"), "an update's value was traced by default");
    assert!(spans_of(db.name()).len() >= 3);

    odm::observe::trace_values(true);
    let loud = "loud-0b5a7e21";
    orders.insert_one(Order { note: Some(loud.into()), ..order(2) }).await.unwrap();
    let found = orders.find(f.note().eq(loud.to_owned())).await.unwrap();
    odm::observe::trace_values(false);
    assert_eq!(found.len(), 1);
    let seen = SEEN.lock().unwrap();
    let seen = seen.as_ref().unwrap();
    let bodies: Vec<&Captured> = seen
        .events
        .iter()
        .filter(|e| e.target == "odm::op::values" && e.get("values").is_some_and(|v| v.contains(loud)))
        .collect();
    // The insert's document and the find's filter.
    assert_eq!(bodies.len(), 2, "{bodies:#?}");
    assert!(seen.spans.values().all(|s| !format!("{:?}", s.fields).contains(loud)), "a value in a span field");
}

#[tokio::test]
async fn pipelines_find_and_modify_the_checker_and_a_change_stream_are_spans_too() {
    install();
    let db = odm::testing::database("tracing_more").await;
    let name = db.name().to_owned();
    odm::collection::create_collection::<Order>(&db).await.unwrap();
    let orders = Collection::<Order>::new(&db);
    let f = Order::fields();
    orders.insert_many([order(10), order(20), order(30)]).await.unwrap();

    let rows = orders.aggregate().filter(f.total().gte(20)).await.unwrap();
    assert_eq!(rows.len(), 2);
    let after = odm::collection::FindAndModify::after();
    let changed = orders.find_one_and_update(f.total().eq(10), Update::new().inc(f.total(), 1), after).await.unwrap();
    assert_eq!(changed.map(|o| o.total), Some(11));
    let checked = orders.check_schema().await.unwrap();
    assert_eq!(checked.checked, 3, "{checked:?}");

    let spans = spans_of(&name);
    assert_eq!(last(&spans, "shop_order", "aggregate").get("returned"), Some("2"));
    assert_eq!(last(&spans, "shop_order", "findAndModify").get("returned"), Some("1"));
    // The checker: its one ordered scan and the server's verdict on the batch (an `aggregate` over `$documents`);
    // with a progress callback, the collection's estimated size first.
    let after_update = spans.iter().position(|s| s.get("command") == Some("findAndModify")).unwrap();
    let checker: Vec<&str> = spans[after_update + 1..].iter().filter_map(|s| s.get("command")).collect();
    assert_eq!(checker, ["find", "aggregate"], "{spans:#?}");
    let before = spans.len();
    let mut totals = Vec::new();
    orders.check_schema().on_progress(|p| totals.push(p.total)).await.unwrap();
    assert_eq!(totals, [3], "one batch, of the 3 counted");
    let spans = spans_of(&name);
    let checker: Vec<&str> = spans[before..].iter().filter_map(|s| s.get("command")).collect();
    assert_eq!(checker, ["count", "find", "aggregate"], "{spans:#?}");

    if support::server::runs_change_streams(db.client()).await {
        let opened = spans_of(&name).len();
        let stream = orders.watch().stream().await.unwrap();
        drop(stream);
        let spans = spans_of(&name);
        let commands: Vec<&str> = spans[opened..].iter().filter_map(|s| s.get("command")).collect();
        assert_eq!(commands, ["aggregate"], "opening a change stream: {spans:#?}");
    }
}

/// Version 1 of a note: its text under another key.
#[derive(odm::Embedded, serde::Deserialize)]
struct NoteV1 {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "tx")]
    text: String,
}

impl Upgrade for NoteV1 {
    type Next = Note;
    fn upgrade(self) -> Note {
        Note { id: self.id, v: Version, body: self.text }
    }
}

/// Version 2 of a note.
#[derive(Model, serde::Serialize, serde::Deserialize)]
#[odm(collection = "crm_note", version = 2, older(NoteV1))]
struct Note {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "_v")]
    v: Version<2>,
    #[serde(rename = "b")]
    body: String,
}

#[tokio::test]
async fn a_migration_traces_its_reads_and_each_batch_with_what_it_modified() {
    install();
    let db = odm::testing::database("tracing_migrate").await;
    let name = db.name().to_owned();
    let older: Vec<odm::bson::Document> =
        (0..5).map(|i| odm::bson::doc! { "_id": ObjectId::new(), "_v": 1, "tx": format!("note {i}") }).collect();
    db.collection::<odm::bson::Document>("crm_note").insert_many(older).await.unwrap();
    let report = Collection::<Note>::new(&db).migrate().batch_size(2).await.unwrap();
    assert_eq!(report.migrated, 5, "{report:?}");
    let spans = spans_of(&name);
    let batches: Vec<&Captured> = spans.iter().filter(|s| s.get("command") == Some("update")).collect();
    assert_eq!(batches.len() as u64, report.batches, "{spans:#?}");
    let modified: u64 = batches.iter().map(|b| b.get("modified").unwrap().parse::<u64>().unwrap()).sum();
    assert_eq!(modified, 5);
    assert!(spans.iter().any(|s| s.get("command") == Some("find")), "the migration reads the older documents");
}
