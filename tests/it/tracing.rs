//! Every operation odm sends is a `tracing` span (target `odm::op`) against a real server: its names, its counts,
//! the server's code when it fails, a sync's commands; and no document value in any of it unless values are asked
//! for. Each test captures the spans opened on its own thread (`odm::testing::SpanCapture`), so tests running at
//! once do not see each other's.

use crate::support;

use odm::bson::oid::ObjectId;
use odm::testing::{CapturedSpan, SpanCapture};
use odm::{Collection, Model, SchemaSync, SyncMode, Update, Upgrade, Version};
use support::models::shop::{order, Order};

/// Everything captured, spans and events, as text: where a value that must not be traced is looked for.
fn all_text(capture: &SpanCapture) -> String {
    let spans = capture.spans().into_iter().map(|s| format!("{} {:?}\n", s.target(), s.fields().collect::<Vec<_>>()));
    let events = capture.events().into_iter().map(|e| format!("{e:?}\n"));
    spans.chain(events).collect()
}

/// The last span of `command` about `collection`.
fn last<'a>(spans: &'a [CapturedSpan], collection: &str, command: &str) -> &'a CapturedSpan {
    spans
        .iter()
        .rev()
        .find(|s| s.get("collection") == Some(collection) && s.get("command") == Some(command))
        .unwrap_or_else(|| panic!("no `{command}` span on `{collection}` in {spans:#?}"))
}

#[tokio::test]
async fn reads_and_writes_are_spans_with_their_counts_and_the_server_code_of_a_failure() {
    let capture = SpanCapture::new();
    let _on = capture.install();
    let db = odm::testing::database("tracing_ops").await;
    let orders = Collection::<Order>::new(&db);
    let f = Order::fields();

    let first = order(10);
    orders.insert_one(&first).await.unwrap();
    orders.insert_many([order(20), order(30)]).await.unwrap();
    let found = orders.find(f.total().gte(20)).await.unwrap();
    assert_eq!(found.len(), 2);
    let updated = orders.update_many(f.total().gte(20), Update::new().inc(f.total(), 1)).await.unwrap();
    assert_eq!((updated.matched, updated.modified), (2, 2));
    let nothing = orders.update_one(f.total().eq(999), Update::new().inc(f.total(), 1)).await.unwrap();
    assert_eq!(nothing.matched, 0);
    // The same `_id` again: the server refuses it with DuplicateKey.
    let err = orders.insert_one(&first).await.expect_err("duplicate key");
    assert_eq!(err.code(), Some(11000), "{err}");
    assert_eq!(orders.delete_many(f.total().gte(0)).await.unwrap().count, 3);

    let spans = capture.ops();
    let inserts: Vec<&CapturedSpan> = spans.iter().filter(|s| s.get("command") == Some("insert")).collect();
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
    let updates: Vec<&CapturedSpan> = spans.iter().filter(|s| s.get("command") == Some("update")).collect();
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
    let capture = SpanCapture::new();
    let _on = capture.install();
    let (db, _) = support::setup::created::<Order>("tracing_refused").await;
    let err = Collection::<TextTotal>::new(&db)
        .insert_one(TextTotal { id: ObjectId::new(), total: "ten".into() })
        .await
        .expect_err("the validator refuses a text total");
    assert_eq!(err.code(), Some(121), "{err}");
    let done = Collection::<Order>::new(&db).bulk().insert(order(1)).insert(order(2)).await.unwrap();
    assert_eq!(done.inserted, 2);

    let spans = capture.ops();
    let create = last(&spans, "shop_order", "create");
    assert_eq!(create.get("error_code"), None, "{create:?}");
    let inserts: Vec<&CapturedSpan> = spans.iter().filter(|s| s.get("command") == Some("insert")).collect();
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
    let capture = SpanCapture::new();
    let _on = capture.install();
    let db = odm::testing::database("tracing_sync").await;
    let name = db.name().to_owned();
    let report = SchemaSync::new(db.client()).database(&name).model::<Item>().mode(SyncMode::Apply).await.unwrap();
    assert!(report.is_in_sync(), "{report}");
    // The commands on this test's database (the sync also asks the server what it is, on `admin`).
    let on_db = |spans: Vec<CapturedSpan>| -> Vec<CapturedSpan> {
        spans.into_iter().filter(|s| s.get("db") == Some(name.as_str())).collect()
    };
    let spans = on_db(capture.ops());
    let commands: Vec<&str> = spans.iter().filter_map(|s| s.get("command")).collect();
    // The `update` is odm's record of the index it created (`odm_index`).
    assert_eq!(commands, ["listCollections", "create", "createIndexes", "update"], "{spans:#?}");
    assert_eq!(last(&spans, "shop_item", "create").get("error_code"), None);
    assert!(last(&spans, "shop_item", "createIndexes").get("duration_ms").is_some());
    // Verify reads again: one listCollections, one listIndexes of the existing collection, nothing else.
    let verified = SchemaSync::new(db.client()).database(&name).model::<Item>().mode(SyncMode::Verify).await;
    verified.unwrap().require_in_sync().unwrap();
    let spans = on_db(capture.ops());
    let commands: Vec<&str> = spans.iter().skip(4).filter_map(|s| s.get("command")).collect();
    assert_eq!(commands, ["listCollections", "listIndexes"], "{spans:#?}");
}

#[tokio::test]
async fn a_transaction_is_a_span_around_its_operations_and_its_commit() {
    let capture = SpanCapture::new();
    let _on = capture.install();
    let (db, orders) = support::setup::created::<Order>("tracing_transaction").await;
    if !support::server::runs_transactions(db.client()).await {
        return;
    }
    odm::Transaction::new(db.client())
        .run(|s| {
            let orders = orders.with_session(&s);
            async move { orders.insert_one(order(5)).await.map(drop) }
        })
        .await
        .unwrap();
    let spans = capture.spans();
    let (at, attempt) = spans.iter().enumerate().find(|(_, s)| s.name() == "odm.transaction").expect("the attempt");
    assert_eq!((attempt.get("attempt"), attempt.get("outcome")), (Some("1"), Some("committed")), "{attempt:?}");
    let inside: Vec<Option<&str>> = spans.iter().filter(|s| s.parent() == Some(at)).map(|s| s.get("command")).collect();
    assert_eq!(inside, [Some("insert"), Some("commitTransaction")], "{spans:#?}");
    assert!(!spans.iter().any(|s| s.get("command") == Some("startTransaction")), "starting sends nothing: no span");
}

/// By default no filter, update or document value is in any span or event; once values are asked for, each
/// operation's body is one `TRACE` event (target `odm::op::values`), and still in no span field.
#[tokio::test]
async fn values_are_traced_only_when_asked_for() {
    let capture = SpanCapture::new();
    let _on = capture.install();
    assert!(std::env::var_os("ODM_TRACE_VALUES").is_none(), "run this test without ODM_TRACE_VALUES");
    let db = odm::testing::database("tracing_values").await;
    let orders = Collection::<Order>::new(&db);
    let f = Order::fields();
    let quiet = "quiet-9c1e4b7d";
    orders.insert_one(Order { note: Some(quiet.into()), ..order(1) }).await.unwrap();
    let found = orders.find(f.note().eq(quiet.to_owned())).await.unwrap();
    assert_eq!(found.len(), 1);
    orders.update_one(f.note().eq(quiet.to_owned()), Update::new().set(f.total(), 77_123_456)).await.unwrap();
    let text = all_text(&capture);
    assert!(!text.contains(quiet), "a value was traced by default:\n{text}");
    assert!(!text.contains("77123456"), "an update's value was traced by default");
    assert!(capture.ops().len() >= 3);

    odm::observe::trace_values(true);
    let loud = "loud-0b5a7e21";
    orders.insert_one(Order { note: Some(loud.into()), ..order(2) }).await.unwrap();
    let found = orders.find(f.note().eq(loud.to_owned())).await.unwrap();
    odm::observe::trace_values(false);
    assert_eq!(found.len(), 1);
    let events = capture.events();
    let bodies: Vec<_> = events
        .iter()
        .filter(|e| e.target() == "odm::op::values" && e.get("values").is_some_and(|v| v.contains(loud)))
        .collect();
    // The insert's document and the find's filter, each inside its operation's span.
    assert_eq!(bodies.len(), 2, "{bodies:#?}");
    let spans = capture.spans();
    assert!(bodies.iter().all(|b| b.span().is_some_and(|i| spans[i].name() == "odm.op")), "{bodies:#?}");
    assert!(spans.iter().all(|s| !s.fields().any(|(_, v)| v.contains(loud))), "a value in a span field");
}

#[tokio::test]
async fn pipelines_find_and_modify_the_checker_and_a_change_stream_are_spans_too() {
    let capture = SpanCapture::new();
    let _on = capture.install();
    let (db, orders) = support::setup::created::<Order>("tracing_more").await;
    let f = Order::fields();
    orders.insert_many([order(10), order(20), order(30)]).await.unwrap();

    let rows = orders.aggregate().filter(f.total().gte(20)).await.unwrap();
    assert_eq!(rows.len(), 2);
    let changed = orders.find_one_and_update(f.total().eq(10), Update::new().inc(f.total(), 1)).after().await.unwrap();
    assert_eq!(changed.map(|o| o.total), Some(11));
    let checked = orders.check_schema().await.unwrap();
    assert_eq!(checked.checked, 3, "{checked:?}");

    let spans = capture.ops();
    assert_eq!(last(&spans, "shop_order", "aggregate").get("returned"), Some("2"));
    assert_eq!(last(&spans, "shop_order", "findAndModify").get("returned"), Some("1"));
    // The checker: its one ordered scan, whether the server has `$documents` (`hello`), and the server's verdict on
    // the batch (an `aggregate` over `$documents`); with a progress callback, the collection's estimated size first.
    let after_update = spans.iter().position(|s| s.get("command") == Some("findAndModify")).unwrap();
    let checker: Vec<&str> = spans[after_update + 1..].iter().filter_map(|s| s.get("command")).collect();
    assert_eq!(checker, ["find", "hello", "aggregate"], "{spans:#?}");
    let before = spans.len();
    let mut totals = Vec::new();
    orders.check_schema().on_progress(|p| totals.push(p.total)).await.unwrap();
    assert_eq!(totals, [3], "one batch, of the 3 counted");
    let spans = capture.ops();
    let checker: Vec<&str> = spans[before..].iter().filter_map(|s| s.get("command")).collect();
    assert_eq!(checker, ["count", "find", "hello", "aggregate"], "{spans:#?}");

    if support::server::runs_change_streams(db.client()).await {
        let opened = capture.ops().len();
        let stream = orders.watch().stream().await.unwrap();
        drop(stream);
        let spans = capture.ops();
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
    let capture = SpanCapture::new();
    let _on = capture.install();
    let db = odm::testing::database("tracing_migrate").await;
    let older: Vec<odm::bson::Document> =
        (0..5).map(|i| odm::bson::doc! { "_id": ObjectId::new(), "_v": 1, "tx": format!("note {i}") }).collect();
    db.collection::<odm::bson::Document>("crm_note").insert_many(older).await.unwrap();
    let report = Collection::<Note>::new(&db).migrate().batch_size(2).await.unwrap();
    assert_eq!(report.migrated, 5, "{report:?}");
    let spans = capture.ops();
    let batches: Vec<&CapturedSpan> = spans.iter().filter(|s| s.get("command") == Some("update")).collect();
    assert_eq!(batches.len() as u64, report.batches, "{spans:#?}");
    let modified: u64 = batches.iter().map(|b| b.get("modified").unwrap().parse::<u64>().unwrap()).sum();
    assert_eq!(modified, 5);
    assert!(spans.iter().any(|s| s.get("command") == Some("find")), "the migration reads the older documents");
}

/// A ledger entry with every setting a model can give its operations: what each span must report as sent.
#[derive(Model, serde::Serialize, serde::Deserialize, Clone)]
#[odm(
    collection = "bank_entry",
    read_concern = "majority",
    read_preference = "primaryPreferred",
    write_concern(w = "majority")
)]
struct Entry {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "a")]
    amount: i64,
}

fn entry(amount: i64) -> Entry {
    Entry { id: ObjectId::new(), amount }
}

/// What the driver sends that is no operation of odm's: the later batches of a cursor (part of the span of the
/// `find` or `aggregate` that opened it), and the client's own housekeeping.
const NOT_OPERATIONS: [&str; 6] =
    ["getMore", "killCursors", "endSessions", "saslStart", "saslContinue", "authenticate"];

/// A `writeConcern` as a span shows it: `majority`, `1`, with `j=…` and `wtimeout=…ms` when set.
fn write_concern_text(wc: &odm::bson::Document) -> Option<String> {
    let mut parts = Vec::new();
    match wc.get("w") {
        Some(odm::bson::Bson::String(w)) => parts.push(w.clone()),
        Some(w) => parts.push(w.as_i64().or_else(|| w.as_i32().map(i64::from)).expect("a number").to_string()),
        None => {}
    }
    if let Ok(j) = wc.get_bool("j") {
        parts.push(format!("j={j}"));
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// A workload of every kind of operation, run through a client that records the commands it sends: every command on
/// the wire (but a cursor's later batches and the client's housekeeping) has exactly one `odm.op` span, in the same
/// order, naming the same command, database and collection, with the write and read concern the command carries;
/// and no span records a field twice.
#[tokio::test]
async fn every_command_on_the_wire_is_one_span_with_the_settings_it_was_sent_with() {
    let test_db = odm::testing::database("tracing_wire").await;
    let transactions = support::server::runs_transactions(test_db.client()).await;
    let (client, recorded) = support::commands::recording_client().await;
    let db = client.database(test_db.name());
    let capture = SpanCapture::new();
    let _on = capture.install();

    odm::collection::create_collection::<Entry>(&db).await.unwrap();
    let entries = Collection::<Entry>::new(&db);
    let f = Entry::fields();
    entries.insert_one(entry(1)).await.unwrap();
    // More than a first batch (101): the find reads the rest with `getMore`, inside its one span.
    entries.insert_many((0..150).map(|i| entry(i + 10))).await.unwrap();
    assert_eq!(entries.find(odm::Filter::everything()).await.unwrap().len(), 151);
    assert!(entries.find_one(f.amount().eq(1)).await.unwrap().is_some());
    assert_eq!(entries.count(f.amount().gte(100)).await.unwrap(), 60);
    entries.update_one(f.amount().eq(1), Update::new().inc(f.amount(), 1)).await.unwrap();
    entries.update_many(f.amount().gte(150), Update::new().inc(f.amount(), 1000)).await.unwrap();
    assert_eq!(entries.delete_one(f.amount().eq(2)).await.unwrap().count, 1);
    assert_eq!(entries.aggregate().filter(f.amount().gte(1000)).await.unwrap().len(), 10);
    entries.find_one_and_update(f.amount().eq(10), Update::new().inc(f.amount(), 1)).after().await.unwrap();
    let bulk = entries.bulk().insert(entry(-1)).update_one(f.amount().eq(11), Update::new().inc(f.amount(), 1));
    let done = bulk.await.unwrap();
    assert_eq!(done.inserted, 1);
    assert_eq!(entries.delete_many(f.amount().lt(0)).await.unwrap().count, 1);
    if transactions {
        odm::Transaction::new(&client)
            .concerns_of::<Entry>()
            .run(|s| {
                let entries = entries.with_session(&s);
                async move {
                    entries.insert_one(entry(7)).await?;
                    entries.find_one(Entry::fields().amount().eq(7)).await.map(drop)
                }
            })
            .await
            .unwrap();
    }

    let spans = capture.spans();
    let ops: Vec<(usize, &CapturedSpan)> = spans.iter().enumerate().filter(|(_, s)| s.name() == "odm.op").collect();
    let started = recorded.started();
    assert!(started.iter().any(|(name, _)| name == "getMore"), "the find read a second batch");
    let wire: Vec<&(String, odm::bson::Document)> =
        started.iter().filter(|(name, _)| !NOT_OPERATIONS.contains(&name.as_str())).collect();
    let span_names: Vec<&str> = ops.iter().map(|(_, s)| s.get("command").unwrap_or("?")).collect();
    let wire_names: Vec<&str> = wire.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(span_names, wire_names, "one span per command on the wire, in order");
    assert!(wire_names.contains(&"aggregate") && !span_names.contains(&"count"), "a count is sent as `aggregate`");

    for ((at, span), (name, sent)) in ops.iter().zip(&wire) {
        let context = format!("{name}: {sent}\nspan: {span:?}");
        assert_eq!(span.get("db"), sent.get_str("$db").ok(), "{context}");
        let collection = sent.get_str(name.as_str()).unwrap_or_default();
        assert_eq!(span.get("collection").unwrap_or_default(), collection, "{context}");
        assert_eq!(
            span.get("write_concern").map(str::to_owned),
            sent.get_document("writeConcern").ok().and_then(write_concern_text),
            "{context}"
        );
        let read_level = sent.get_document("readConcern").ok().and_then(|r| r.get_str("level").ok());
        if sent.get_bool("startTransaction").unwrap_or(false) {
            // The transaction's first command carries its read concern: the attempt's span reports it.
            let attempt = &spans[span.parent().expect("inside its transaction's span")];
            assert_eq!(attempt.name(), "odm.transaction", "{context}");
            assert_eq!(attempt.get("read_concern"), read_level, "{context}");
            assert_eq!(attempt.get("read_preference"), Some("primary"), "{context}");
            assert_eq!(span.get("read_concern"), None, "{context}");
        } else {
            assert_eq!(span.get("read_concern"), read_level, "{context}");
        }
        let in_transaction = span.parent().is_some_and(|p| spans[p].name() == "odm.transaction");
        if matches!(name.as_str(), "find" | "aggregate") && !in_transaction {
            assert_eq!(span.get("read_preference"), Some("primaryPreferred"), "{context}");
        }
        for (field, _) in span.fields() {
            assert_eq!(span.recorded(field).len(), 1, "`{field}` recorded more than once (span {at}): {span:?}");
        }
    }
    // The writes outside the transaction carry the model's `majority`; the reads its read concern.
    let insert = ops.iter().find(|(_, s)| s.get("command") == Some("insert")).expect("an insert").1;
    assert_eq!(insert.get("write_concern"), Some("majority"));
    let find = ops.iter().find(|(_, s)| s.get("command") == Some("find")).expect("a find").1;
    assert_eq!(find.get("read_concern"), Some("majority"));
    if transactions {
        assert!(wire_names.contains(&"commitTransaction"));
    }
}
