//! The runtime against the real test server: collection creation from a model (validator, level, action), typed
//! inserts and reads, errors that name Rust fields, the client-side size check, and decode errors naming `_id`.

use crate::support;

use futures_util::TryStreamExt;
use odm::bson::{doc, oid::ObjectId, Document};
use odm::{Collection, Filter, Model, Update};
use serde::{Deserialize, Serialize};
use support::models::families::{Line, Review};
use support::server::collection_options;

#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(db = "shop", module = "order", collection = "order_header", closed)]
struct Order {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "no")]
    #[odm(not_a_date)]
    number: String,
    #[serde(rename = "it")]
    #[odm(max_items = 30, counter = "item_count")]
    items: Vec<Line>,
    #[serde(rename = "ic")]
    item_count: i32,
    #[serde(rename = "rv")]
    #[odm(max_items = 3)]
    reviews: Vec<Review>,
}

fn order(lines: usize) -> Order {
    Order {
        id: ObjectId::new(),
        number: "201809270012598323334".into(),
        items: (0..lines).map(|i| Line { name: format!("item{i}"), quantity: i as i32 + 1, price: 2.5 }).collect(),
        item_count: lines as i32,
        reviews: Vec::new(),
    }
}

#[tokio::test]
async fn create_collection_sets_validator_level_and_action() {
    let db = odm::testing::database("create").await;
    odm::collection::create_collection::<Order>(&db).await.expect("create");
    let options = collection_options(&db, "order_header").await;
    assert_eq!(options.get_document("validator").expect("validator"), &Order::validator());
    assert_eq!(options.get_str("validationLevel").ok(), Some("strict"));
    assert_eq!(options.get_str("validationAction").ok(), Some("error"));

    // Creating it again with identical options is a no-op (as on mongod 7.0+)...
    odm::collection::create_collection::<Order>(&db).await.expect("identical create is idempotent");
    // ...but a collection of that name created elsewhere with other options is not silently taken over.
    let other = odm::testing::database("create_other").await;
    other.create_collection("order_header").await.expect("plain create");
    let err = odm::collection::create_collection::<Order>(&other).await.expect_err("different options");
    assert_eq!(err.code(), Some(48), "NamespaceExists: {err}");
    assert!(!collection_options(&other, "order_header").await.contains_key("validator"), "left as it was");
}

#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(
    collection = "log_audit_event",
    validation_level = "moderate",
    validation_action = "warn",
    capped(size = 1048576)
)]
struct AuditEvent {
    #[serde(rename = "m")]
    message: String,
}

#[tokio::test]
async fn level_and_action_come_from_the_model() {
    let db = odm::testing::database("level").await;
    odm::collection::create_collection::<AuditEvent>(&db).await.expect("create");
    let options = collection_options(&db, "log_audit_event").await;
    assert_eq!(options.get_str("validationLevel").ok(), Some("moderate"));
    assert_eq!(options.get_str("validationAction").ok(), Some("warn"));
    // A log collection is capped.
    assert_eq!(options.get_bool("capped").ok(), Some(true));
    // `warn` lets an invalid document in (and logs it).
    db.collection::<Document>("log_audit_event").insert_one(doc! { "m": 42 }).await.expect("warn accepts");
}

#[tokio::test]
async fn typed_insert_find_and_count() {
    let (_db, orders) = support::setup::created::<Order>("typed").await;
    let a = order(3);
    let b = order(0);
    let inserted = orders.insert_one(&a).await.expect("insert");
    assert_eq!(inserted.id, a.id);
    let c = order(30);
    let many = orders.insert_many([&b, &c]).await.expect("insert many");
    assert_eq!(many.ids, vec![b.id, c.id], "in input order");
    assert_eq!(orders.find_one(Order::fields().id().eq(a.id)).await.expect("find"), Some(a.clone()));
    assert_eq!(orders.count(Filter::everything()).await.expect("count"), 3);
    let empty = orders.find(Order::fields().item_count().eq(0)).await.expect("find");
    assert_eq!(empty, vec![b]);
    assert!(orders.insert_many(Vec::<Order>::new()).await.expect("nothing to insert").ids.is_empty());
}

#[tokio::test]
async fn validation_errors_name_rust_fields() {
    let (db, orders) = support::setup::created::<Order>("errors").await;

    let err = orders.insert_one(order(31)).await.expect_err("over max_items");
    let odm::Error::Validation(v) = &err else { panic!("expected a validation error, got {err}") };
    assert_eq!(v.failures.len(), 1, "{err}");
    assert_eq!(v.failures[0].path, "Order.items");
    assert_eq!(v.failures[0].stored_path, "it");
    assert_eq!(v.failures[0].rule, "maxItems");
    assert_eq!(v.failures[0].expected.as_deref(), Some("30"));
    assert_eq!(v.failures[0].actual.as_deref(), Some("31"));

    let mut out_of_step = order(2);
    out_of_step.item_count = 5;
    let err = orders.insert_one(out_of_step).await.expect_err("counter");
    assert!(err.to_string().contains("$expr"), "{err}");

    // Around the ODM: a nested wrong type is reported by its Rust path and both BSON types.
    let mut raw = odm::bson::serialize_to_document(&order(3)).expect("serialize");
    raw.get_array_mut("it").expect("it")[2].as_document_mut().expect("line").insert("p", "2.50");
    let err = odm::Error::from_write::<Order>(
        db.collection::<Document>("order_header").insert_one(raw).await.expect_err("hostile"),
    );
    assert_eq!(
        err.to_string(),
        "Order: document failed validation: Order.items[2].price: bsonType (expected double, found string)"
    );
    assert_eq!(orders.count(Filter::everything()).await.expect("count"), 0, "nothing was stored");
}

#[derive(Model, Serialize, Deserialize, Debug, PartialEq)]
#[odm(collection = "blob_store", max_key_len = 8)]
struct Blob {
    #[serde(rename = "d")]
    data: String,
}

#[tokio::test]
async fn oversize_documents_fail_before_sending() {
    let db = odm::testing::database("size").await;
    let blobs = Collection::<Blob>::new(&db);
    let big = Blob { data: "x".repeat(odm::error::MAX_DOCUMENT_SIZE) };
    match blobs.insert_one(&big).await {
        Err(odm::Error::DocumentTooLarge { size, limit, model }) => {
            assert_eq!(model, "Blob");
            assert_eq!(limit, 16 * 1024 * 1024);
            assert!(size > limit);
        }
        other => panic!("expected DocumentTooLarge, got {other:?}"),
    }
    // Nothing reached the server: the collection was never even created.
    let names = db.list_collection_names().await.expect("list");
    assert!(!names.contains(&"blob_store".to_owned()), "{names:?}");
    // Just under the limit is fine.
    let fits = Blob { data: "x".repeat(odm::error::MAX_DOCUMENT_SIZE - 64) };
    blobs.insert_one(&fits).await.expect("fits");
}

/// A document that grows: a head and unbounded parts.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "blob_scroll")]
struct Scroll {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "h")]
    head: String,
    #[serde(rename = "p")]
    #[odm(unbounded)]
    parts: Vec<String>,
}

#[tokio::test]
async fn oversize_updates_fail_before_sending() {
    use odm::error::MAX_STATEMENT_SIZE;
    use odm::Update;
    let db = odm::testing::database("size_update").await;
    let blobs = Collection::<Blob>::new(&db);
    blobs.insert_one(Blob { data: "small".into() }).await.expect("insert");
    let f = Blob::fields();

    // `{}` (5 bytes) and `{$set: {d: <string>}}` (the string's length + 24 bytes).
    let len = MAX_STATEMENT_SIZE;
    let err =
        blobs.update_one(Filter::everything(), Update::new().set(f.data(), "x".repeat(len))).await.expect_err("big");
    assert!(
        matches!(err, odm::Error::UpdateTooLarge { model: "Blob", size, limit } if size == len + 29 && limit == len),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        format!(
            "Blob: the update statement (filter with update or replacement) is {} bytes, over the {len} bytes MongoDB \
             takes (16 MiB + 16 KiB); it was not sent",
            len + 29
        )
    );
    let err = blobs
        .find_one_and_update(Filter::everything(), Update::new().set(f.data(), "x".repeat(len)))
        .after()
        .await
        .expect_err("big");
    assert!(matches!(err, odm::Error::UpdateTooLarge { model: "Blob", .. }), "{err:?}");

    // A replacement is a document: over 16 MiB on its own, or over the statement limit with its filter.
    let err = blobs.replace_one(Filter::everything(), Blob { data: "x".repeat(len) }).await.expect_err("big");
    assert!(matches!(err, odm::Error::DocumentTooLarge { model: "Blob", .. }), "{err:?}");
    let fits = Blob { data: "x".repeat(odm::error::MAX_DOCUMENT_SIZE - 64) };
    let err = blobs.replace_one(f.data().eq("y".repeat(20 * 1024)), &fits).await.expect_err("big statement");
    assert!(matches!(err, odm::Error::UpdateTooLarge { model: "Blob", .. }), "{err:?}");
    assert_eq!(blobs.find_one(Filter::everything()).await.expect("read"), Some(Blob { data: "small".into() }));
}

#[tokio::test]
async fn documents_grown_past_the_limit_are_refused_by_name() {
    let (_db, scrolls) = support::setup::created::<Scroll>("size_grow").await;
    let f = Scroll::fields();
    let nine = 9 * 1024 * 1024;
    let scroll = Scroll { id: ObjectId::new(), head: "h".repeat(nine), parts: Vec::new() };
    scrolls.insert_one(&scroll).await.expect("9 MiB fits");

    // Each update fits; only the server knows the document it would leave is over 16 MiB.
    let err = scrolls.update_one(f.id().eq(scroll.id), odm::Update::new().push(f.parts(), "p".repeat(nine))).await;
    let err = err.expect_err("grown past 16 MiB");
    // 10334 `BSONObjectTooLarge` from current servers, 17419 from earlier ones.
    assert!(matches!(&err, odm::Error::ResultTooLarge { model: "Scroll", code: 10334 | 17419, .. }), "{err:?}");
    assert_eq!(err.code(), Some(if let odm::Error::ResultTooLarge { code, .. } = err { code } else { 0 }));
    let text = err.to_string();
    assert!(
        text.starts_with(
            "Scroll: the write would leave a document larger than MongoDB's limit of 16777216 bytes (16 MiB), so the \
             server refused it (code "
        ) && text.ends_with("Resulting document after update is larger than 16777216)"),
        "{text}"
    );
    assert_eq!(scrolls.find_one(f.id().eq(scroll.id)).await.expect("read"), Some(scroll), "unchanged");

    // An upsert that would insert a document over 16 MiB (by 8 KiB: a statement may exceed 16 MiB by 16 KiB).
    let eight = 8 * 1024 * 1024;
    let update = odm::Update::new().set(f.head(), "h".repeat(eight)).push(f.parts(), "p".repeat(eight + 8 * 1024));
    let err = scrolls.update_one(f.id().eq(ObjectId::new()), update).upsert().await.expect_err("upsert over 16 MiB");
    assert!(matches!(&err, odm::Error::ResultTooLarge { model: "Scroll", code: 17420, .. }), "{err:?}");
    assert!(err.to_string().ends_with("(code 17420: Document to upsert is larger than 16777216)"), "{err}");
    assert_eq!(scrolls.count(Filter::everything()).await.expect("count"), 1, "nothing inserted");
}

#[tokio::test]
async fn decode_errors_name_the_document_and_field() {
    let db = odm::testing::database("decode").await;
    let id = ObjectId::new();
    db.collection::<Document>("blob_store").insert_one(doc! { "_id": id, "d": 5 }).await.expect("raw insert");
    let err = Collection::<Blob>::new(&db).find_one(Filter::everything()).await.expect_err("wrong type stored");
    assert!(matches!(err, odm::Error::Decode(_)), "{err}");
    assert_eq!(
        err.to_string(),
        format!(
            "Blob: cannot decode document with _id ObjectId(\"{id}\"): `Blob.data` (stored `d`): invalid type: \
                 integer `5`, expected a string"
        )
    );
}

#[tokio::test]
async fn decode_errors_deep_in_arrays_speak_rust_paths() {
    let db = odm::testing::database("decode_deep").await;
    let orders = db.collection::<Document>("order_header");
    let id = ObjectId::new();
    // Written around odm (no validator here): a quantity stored as a string, in the second line.
    let line = |q: odm::bson::Bson| doc! { "n": "pen", "q": q, "p": 2.5 };
    let raw = doc! { "_id": id, "no": "1", "it": [line(1.into()), line("two".into())], "ic": 2, "rv": [] };
    orders.insert_one(raw).await.expect("raw insert");
    let coll = Collection::<Order>::new(&db);
    let expected = format!(
        "Order: cannot decode document with _id ObjectId(\"{id}\"): `Order.items[1].quantity` (stored `it.1.q`): \
         invalid type: string \"two\", expected i32"
    );
    let err = coll.find_one(Filter::everything()).await.expect_err("wrong type stored");
    assert_eq!(err.to_string(), expected);
    let odm::Error::Decode(d) = &err else { panic!("{err:?}") };
    assert_eq!((d.path.as_str(), d.stored_path.as_str()), ("Order.items[1].quantity", "it.1.q"));
    // Reads of many documents decode the same way.
    let err = coll.find(Filter::everything()).await.expect_err("wrong type stored");
    assert_eq!(err.to_string(), expected);

    // Two arrays down: a voter id that is not an ObjectId.
    orders.delete_many(doc! {}).await.expect("clear");
    let review = doc! { "t": "ok", "v": [ObjectId::new(), "nobody"], "hv": 2_i64 };
    orders.insert_one(doc! { "_id": id, "no": "1", "it": [], "ic": 0, "rv": [review] }).await.expect("raw insert");
    let err = coll.find_one(Filter::everything()).await.expect_err("wrong type stored");
    let odm::Error::Decode(d) = &err else { panic!("{err:?}") };
    assert_eq!((d.path.as_str(), d.stored_path.as_str()), ("Order.reviews[0].voter_ids[1]", "rv.0.v.1"), "{err}");
    assert!(err.to_string().contains("`Order.reviews[0].voter_ids[1]` (stored `rv.0.v.1`): "), "{err}");

    // A field missing from an element names the element.
    orders.delete_many(doc! {}).await.expect("clear");
    let partial = doc! { "n": "pen", "p": 2.5 };
    orders.insert_one(doc! { "_id": id, "no": "1", "it": [partial], "ic": 1, "rv": [] }).await.expect("raw insert");
    let err = coll.find_one(Filter::everything()).await.expect_err("missing field");
    assert_eq!(
        err.to_string(),
        format!(
            "Order: cannot decode document with _id ObjectId(\"{id}\"): `Order.items[0].quantity` (stored \
             `it.0.q`): missing, but the field is required"
        )
    );
    let odm::Error::Decode(d) = &err else { panic!("{err:?}") };
    assert_eq!((d.path.as_str(), d.stored_path.as_str()), ("Order.items[0].quantity", "it.0.q"));
}

#[tokio::test]
async fn a_missing_required_field_is_named_by_its_rust_path() {
    let db = odm::testing::database("decode_missing").await;
    let id = ObjectId::new();
    // Written around odm: an order without its lines.
    let orders = db.collection::<Document>("order_header");
    orders.insert_one(doc! { "_id": id, "no": "1", "ic": 0, "rv": [] }).await.expect("raw insert");
    let coll = Collection::<Order>::new(&db);
    let expected = format!(
        "Order: cannot decode document with _id ObjectId(\"{id}\"): `Order.items` (stored `it`): missing, but the \
         field is required"
    );
    let err = coll.find_one(Filter::everything()).await.expect_err("missing field");
    assert_eq!(err.to_string(), expected);
    let odm::Error::Decode(d) = &err else { panic!("{err:?}") };
    assert_eq!((d.path.as_str(), d.stored_path.as_str()), ("Order.items", "it"));
    assert_eq!(d.id, Some(id.into()));
    // The decoder's own error is kept as the source, with the stored path as its key.
    assert_eq!(d.source.message.as_deref(), Some("missing field `it`"));
    assert_eq!(d.source.key.as_deref(), Some("it"));
    assert_eq!(coll.find(Filter::everything()).await.expect_err("missing field").to_string(), expected);
    let read = coll.find(Filter::everything()).all_valid().await.expect("lenient read");
    assert_eq!((read.values.len(), read.skipped.len()), (0, 1));
    assert_eq!((read.skipped[0].path.as_str(), read.skipped[0].stored_path.as_str()), ("Order.items", "it"));
}

/// A read of many documents decodes each as it arrives, across the cursor's batches: the same values as written, in
/// order, as a stream gives them one by one; a document that does not decode, in a later batch, fails the read
/// naming its `_id` and field.
#[tokio::test]
async fn a_find_of_many_documents_decodes_every_batch() {
    let db = odm::testing::database("decode_many").await;
    let coll = Collection::<Order>::new(&db);
    let f = Order::fields();
    // Ordered by `_id` as they are created; the first reply of a cursor holds 101 documents, later ones the rest.
    let written: Vec<Order> = (0..450).map(|i| order(i % 4)).collect();
    coll.insert_many(&written).await.expect("insert");
    let all = coll.find(Filter::everything()).sort(f.id().asc()).await.expect("read");
    assert_eq!(all, written);
    let streamed: Vec<Order> =
        coll.find(Filter::everything()).sort(f.id().asc()).stream().await.expect("stream").try_collect().await.unwrap();
    assert_eq!(streamed, all);

    // One document written around odm, past the first batch: a quantity stored as a string.
    let bad = ObjectId::new();
    let line = doc! { "n": "pen", "q": "two", "p": 2.5 };
    let raw = doc! { "_id": bad, "no": "1", "it": [line], "ic": 1, "rv": [] };
    db.collection::<Document>("order_header").insert_one(raw).await.expect("raw insert");
    let expected = format!(
        "Order: cannot decode document with _id ObjectId(\"{bad}\"): `Order.items[0].quantity` (stored `it.0.q`): \
         invalid type: string \"two\", expected i32"
    );
    let err = coll.find(Filter::everything()).sort(f.id().asc()).await.expect_err("one bad document");
    assert_eq!(err.to_string(), expected);
    let mut stream = std::pin::pin!(coll.find(Filter::everything()).sort(f.id().asc()).stream().await.expect("stream"));
    let mut good = 0;
    let err = loop {
        match stream.try_next().await {
            Ok(Some(_)) => good += 1,
            Ok(None) => panic!("the bad document decoded"),
            Err(e) => break e,
        }
    };
    assert_eq!((good, err.to_string()), (450, expected));
    let read = coll.find(Filter::everything()).sort(f.id().asc()).all_valid().await.expect("lenient read");
    assert_eq!(read.values, written);
    assert_eq!(read.skipped.len(), 1);
    assert_eq!(read.skipped[0].id, Some(bad.into()));
}

#[derive(Model, Serialize, Deserialize, Debug, Clone)]
#[odm(collection = "shop_counter")]
struct Counters {
    #[serde(rename = "c")]
    counts: std::collections::HashMap<String, i64>,
    #[serde(rename = "l")]
    #[odm(max_items = 3)]
    lines: Vec<std::collections::BTreeMap<String, i32>>,
}

#[tokio::test]
async fn run_time_map_keys_are_checked_before_sending() {
    let (_db, coll) = support::setup::created::<Counters>("map_keys").await;
    let with = |key: &str, nested: &str| Counters {
        counts: [(key.to_owned(), 1)].into_iter().collect(),
        lines: vec![Default::default(), [(nested.to_owned(), 2)].into_iter().collect()],
    };
    coll.insert_one(with("ok_key", "fine")).await.expect("plain keys are stored");

    for (value, path) in [(with("a.b", "x"), "c.a.b"), (with("$set", "x"), "c.$set"), (with("k", "p.q"), "l.1.p.q")] {
        match coll.insert_one(&value).await {
            Err(odm::Error::InvalidKey { model, path: at, .. }) => {
                assert_eq!(model, "Counters");
                assert_eq!(at, path);
            }
            other => panic!("expected InvalidKey at {path}, got {other:?}"),
        }
    }
    for (value, path) in [(with("nul\0key", "x"), "c.nul\0key"), (with("k", "in\0ner"), "l.1.in\0ner")] {
        match coll.insert_one(&value).await {
            Err(odm::Error::InvalidKey { model, path: at, reason }) => {
                assert_eq!((model, at.as_str()), ("Counters", path));
                assert!(reason.contains("NUL"), "{reason}");
            }
            other => panic!("expected InvalidKey at {path:?}, got {other:?}"),
        }
    }
    assert_eq!(coll.count(Filter::everything()).await.expect("count"), 1, "nothing invalid reached the server");
}

/// Consistency settings on the model.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "shop_payment", read_concern = "majority", read_preference = "primaryPreferred")]
#[odm(write_concern(w = "majority", j = true, timeout_ms = 5000))]
struct Payment {
    #[serde(rename = "a")]
    amount: i64,
}

#[tokio::test]
async fn read_and_write_concern_come_from_the_model() {
    assert_eq!(Payment::READ_CONCERN, Some(odm::model::ReadConcernLevel::Majority));
    assert_eq!(Payment::READ_PREFERENCE, Some(odm::model::ReadPreferenceMode::PrimaryPreferred));
    assert_eq!(Payment::WRITE_CONCERN.and_then(|w| w.w), Some(odm::model::Acknowledgment::Tag("majority")));
    // Every spelling the attribute takes names a level or mode, written as the server spells it.
    for level in [
        odm::model::ReadConcernLevel::Local,
        odm::model::ReadConcernLevel::Available,
        odm::model::ReadConcernLevel::Majority,
        odm::model::ReadConcernLevel::Linearizable,
        odm::model::ReadConcernLevel::Snapshot,
    ] {
        let doc = odm::bson::serialize_to_document(&level.to_driver()).expect("read concern");
        assert_eq!(doc.get_str("level").ok(), Some(level.as_str()), "{doc}");
    }
    let test_db = odm::testing::database("concern").await;
    let (client, seen) = support::commands::recording_client().await;
    let db = client.database(test_db.name());
    let payments = Collection::<Payment>::new(&db);
    payments.insert_one(Payment { amount: 5 }).await.expect("insert with w: majority");
    assert_eq!(payments.find_one(Filter::everything()).await.expect("find"), Some(Payment { amount: 5 }));

    let commands: Vec<Document> = seen
        .started()
        .into_iter()
        .filter(|(name, _)| ["insert", "find"].contains(&name.as_str()))
        .map(|(_, c)| c)
        .collect();
    assert_eq!(commands.len(), 2, "{commands:?}");
    let wc = commands[0].get_document("writeConcern").expect("insert carries the model's write concern");
    assert_eq!(wc.get_str("w").ok(), Some("majority"));
    assert_eq!(wc.get_bool("j").ok(), Some(true));
    assert_eq!(wc.get("wtimeout").and_then(|v| v.as_i64().or(v.as_i32().map(i64::from))), Some(5000));
    let rc = commands[1].get_document("readConcern").expect("find carries the model's read concern");
    assert_eq!(rc.get_str("level").ok(), Some("majority"));
    assert!(matches!(
        payments.raw().selection_criteria(),
        Some(odm::mongodb::options::SelectionCriteria::ReadPreference(
            odm::mongodb::options::ReadPreference::PrimaryPreferred { .. }
        ))
    ));
}

#[tokio::test]
async fn closing_a_test_database_ends_in_bounded_time_and_says_what_it_waited_for() {
    use odm::testing::Closed;
    use std::time::{Duration, Instant};
    // A cursor left open on the server (batches of 2 over 10 documents, one read): the driver's own shutdown would
    // wait for it forever.
    let db = odm::testing::database("close_live_cursor").await;
    let raw = db.collection::<Document>("c");
    raw.insert_many((0..10).map(|i| doc! { "i": i })).await.unwrap();
    let mut cursor = raw.find(doc! {}).batch_size(2).await.unwrap();
    assert!(cursor.try_next().await.unwrap().is_some());
    let started = Instant::now();
    let closed = db.close_within(Duration::from_millis(300)).await;
    assert!(started.elapsed() < Duration::from_secs(10), "bounded: {:?}", started.elapsed());
    assert_eq!(closed, Closed::WithoutWaiting { waited: Duration::from_millis(300) });
    assert!(closed.to_string().contains("a cursor or session that is still alive"), "{closed}");
    drop(cursor);

    // Nothing alive: a clean close.
    let db = odm::testing::database("close_clean").await;
    db.collection::<Document>("c").insert_one(doc! { "i": 1 }).await.unwrap();
    assert_eq!(db.close().await, Closed::Cleanly);
}

/// A model whose `_id` is chosen: a coupon's code.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "shop_coupon")]
struct Coupon {
    #[serde(rename = "_id")]
    #[odm(custom_id)]
    code: String,
    #[serde(rename = "u")]
    uses: i32,
}

#[tokio::test]
async fn inserted_and_upserted_ids_come_back_as_the_models_id_type() {
    // A String `_id`: the value's own, as a String.
    let (db, coupons) = support::setup::created::<Coupon>("ids_string").await;
    let inserted = coupons.insert_one(Coupon { code: "WELCOME".into(), uses: 0 }).await.expect("insert");
    let id: String = inserted.id;
    assert_eq!(id, "WELCOME");
    let many = coupons.insert_many([Coupon { code: "B".into(), uses: 0 }, Coupon { code: "A".into(), uses: 0 }]);
    assert_eq!(many.await.expect("insert many").ids, ["B", "A"], "in input order");

    // An upsert inserts when nothing matches: its id typed, built from the filter's equality…
    let f = Coupon::fields();
    let made = coupons.update_one(f.code().eq("SPRING"), Update::new().inc(f.uses(), 1)).upsert().await.unwrap();
    assert_eq!((made.matched, made.modified, made.upserted_id.as_deref()), (0, 0, Some("SPRING")));
    // …and updates when something does.
    let again = coupons.update_one(f.code().eq("SPRING"), Update::new().inc(f.uses(), 1)).upsert().await.unwrap();
    assert_eq!((again.matched, again.modified, again.upserted_id), (1, 1, None));
    let spring = coupons.find_one(f.code().eq("SPRING")).await.unwrap();
    assert_eq!(spring, Some(Coupon { code: "SPRING".into(), uses: 2 }));
    // Without `.upsert()`, nothing is inserted.
    let missed = coupons.update_one(f.code().eq("SUMMER"), Update::new().inc(f.uses(), 1)).await.unwrap();
    assert_eq!((missed.matched, missed.upserted_id), (0, None));
    // `update_many` upserts one document when none matches, updates every match otherwise.
    let all = coupons.update_many(f.uses().eq(0), Update::new().set(f.uses(), 5)).upsert().await.unwrap();
    assert_eq!((all.matched, all.modified, all.upserted_id), (3, 3, None));
    let one = coupons.update_many(f.code().eq("AUTUMN"), Update::new().set(f.uses(), 1)).upsert().await.unwrap();
    assert_eq!(one.upserted_id.as_deref(), Some("AUTUMN"));
    // `find_one_and_update` upserts too: the document after it with `.after()`, `None` (as it was) without.
    let winter = coupons.find_one_and_update(f.code().eq("WINTER"), Update::new().set(f.uses(), 9)).upsert().after();
    assert_eq!(winter.await.unwrap(), Some(Coupon { code: "WINTER".into(), uses: 9 }));
    let before = coupons.find_one_and_update(f.code().eq("FALL"), Update::new().set(f.uses(), 9)).upsert();
    assert_eq!(before.await.unwrap(), None);
    assert_eq!(coupons.count(Filter::everything()).await.unwrap(), 7);
    let deleted = coupons.delete_many(f.uses().eq(9)).await.unwrap();
    assert_eq!(deleted.count, 2);
    drop(db);

    // An ObjectId `_id`: the value's own.
    let (_db, orders) = support::setup::created::<Order>("ids_object").await;
    let a = order(1);
    assert_eq!(orders.insert_one(&a).await.unwrap().id, a.id);
    // No `_id` field: the ObjectId the driver generated, and it is the stored one.
    let db = odm::testing::database("ids_generated").await;
    odm::collection::create_collection::<AuditEvent>(&db).await.expect("create");
    let events = Collection::<AuditEvent>::new(&db);
    let generated: ObjectId = events.insert_one(AuditEvent { message: "hello".into() }).await.unwrap().id;
    let raw = db.collection::<Document>("log_audit_event");
    let stored = raw.find_one(doc! { "_id": generated }).await.unwrap().expect("stored under that id");
    assert_eq!(stored.get_str("m").ok(), Some("hello"));
    // An upsert's inserted id too.
    let m = AuditEvent::fields();
    let made = events.update_one(m.message().eq("bye"), Update::new().set(m.message(), "bye".to_owned())).upsert();
    let upserted: ObjectId = made.await.unwrap().upserted_id.expect("inserted");
    assert!(raw.find_one(doc! { "_id": upserted, "m": "bye" }).await.unwrap().is_some());
}

/// A model whose `_id` may be left out: the driver then generates an ObjectId, which a String cannot hold.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "shop_ticket")]
struct Ticket {
    #[serde(rename = "_id", skip_serializing_if = "Option::is_none")]
    #[odm(custom_id)]
    code: Option<String>,
    #[serde(rename = "s")]
    seat: i32,
}

#[tokio::test]
async fn an_inserted_id_the_models_id_type_cannot_hold_is_a_decode_error() {
    // Without the model's validator, which would refuse the ObjectId before anything is decoded.
    let db = odm::testing::database("ids_mismatch").await;
    let tickets = Collection::<Ticket>::new(&db);
    let chosen = tickets.insert_one(Ticket { code: Some("A1".into()), seat: 1 }).await.expect("a chosen code");
    assert_eq!(chosen.id.as_deref(), Some("A1"));
    let err = tickets.insert_one(Ticket { code: None, seat: 2 }).await.expect_err("a generated ObjectId");
    let odm::Error::Decode(e) = &err else { panic!("expected a decode error, got {err}") };
    assert_eq!(e.model, "Ticket");
    assert!(matches!(e.id, Some(odm::bson::Bson::ObjectId(_))), "{err}");
    assert_eq!(e.stored_path, "_id", "{err}");
    // The insert itself happened: only its report could not be typed.
    assert_eq!(tickets.count(Filter::everything()).await.unwrap(), 2);
}
