//! Typed change streams against a real server: every kind of change decoded as the model, a filter applied on the
//! document, a stream resumed after a given event, and documents written by another program that do not decode.

use crate::support;

use futures_util::{Stream, StreamExt};
use odm::bson::{doc, oid::ObjectId, Bson, Document};
use odm::watch::{Change, ChangeEvent, UndecodableChange};
use odm::{Collection, Error, Model, Update};
use std::time::Duration;
use support::models::shop::{self, Order};

type Item = odm::error::Result<ChangeEvent<Order>>;

/// The stream's next item, within 10 s.
async fn next_item<S: Stream<Item = Item> + Unpin>(s: &mut S) -> Item {
    tokio::time::timeout(Duration::from_secs(10), s.next()).await.expect("an item within 10 s").expect("stream open")
}

async fn next<S: Stream<Item = Item> + Unpin>(s: &mut S) -> ChangeEvent<Order> {
    next_item(s).await.expect("event")
}

/// The stream's next item, which must be an undecodable change.
async fn next_undecodable<S: Stream<Item = Item> + Unpin>(s: &mut S) -> Box<UndecodableChange> {
    match next_item(s).await {
        Err(Error::UndecodableChange(c)) => c,
        other => panic!("expected an undecodable change, got {other:?}"),
    }
}

#[tokio::test]
async fn every_change_comes_decoded_and_a_stream_resumes_after_any_event() {
    let (db, orders) = support::setup::created::<Order>("watch").await;
    if !support::server::runs_change_streams(db.client()).await {
        return;
    }
    let mut changes = Box::pin(orders.watch().full_document().stream().await.expect("open"));

    let order = Order { id: ObjectId::new(), total: 10, note: Some("gift".into()) };
    let f = Order::fields();
    orders.insert_one(&order).await.unwrap();
    orders.update_one(f.id().eq(order.id), Update::new().inc(f.total(), 5).unset(f.note())).await.unwrap();
    let replaced = Order { id: order.id, total: 99, note: None };
    orders.replace_one(f.id().eq(order.id), &replaced).await.unwrap();
    orders.delete_one(f.id().eq(order.id)).await.unwrap();

    let inserted = next(&mut changes).await;
    assert_eq!(inserted.change, Change::Insert { id: order.id.into(), value: order.clone() });
    let updated = next(&mut changes).await;
    match &updated.change {
        Change::Update { id, set, unset, value } => {
            assert_eq!(id, &order.id.into());
            assert_eq!(set, &doc! { "t": 15_i64 });
            assert_eq!(unset, &["n".to_owned()]);
            // Looked up when the event was read: the document may have changed again since (here: replaced or gone).
            assert!(value.as_ref().is_none_or(|v| v.as_ref().is_ok_and(|v| v.id == order.id)), "{value:?}");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(next(&mut changes).await.change, Change::Replace { id: order.id.into(), value: replaced });
    assert_eq!(next(&mut changes).await.change, Change::Delete { id: order.id.into() });

    // Resumed after the update: the replacement and the deletion again, nothing before.
    let mut resumed = Box::pin(orders.watch().resume_after(updated.token.clone()).stream().await.expect("resume"));
    assert!(matches!(next(&mut resumed).await.change, Change::Replace { .. }));
    assert!(matches!(next(&mut resumed).await.change, Change::Delete { .. }));

    // A filter on the document: only big orders (and deletions, which carry no document).
    let mut big = Box::pin(orders.watch().filter(f.total().gte(100)).stream().await.expect("filtered"));
    let small = shop::order(1);
    let large = shop::order(500);
    orders.insert_many([&small, &large]).await.unwrap();
    assert_eq!(next(&mut big).await.change, Change::Insert { id: large.id.into(), value: large });
}

/// The collection of a program that writes orders without odm and without a validator: nothing stops a document the
/// model cannot read. Returns odm's view of it and the other program's.
async fn shared_orders(db: &odm::testing::TestDatabase) -> (Collection<Order>, odm::mongodb::Collection<Document>) {
    db.create_collection(Order::COLLECTION).await.unwrap();
    (Collection::<Order>::new(db), db.collection::<Document>(Order::COLLECTION))
}

#[tokio::test]
async fn an_undecodable_insert_carries_its_token_id_and_operation_and_the_stream_goes_on() {
    let db = odm::testing::database("watch_undecodable").await;
    if !support::server::runs_change_streams(db.client()).await {
        return;
    }
    let (orders, other_program) = shared_orders(&db).await;
    let mut changes = Box::pin(orders.watch().full_document().stream().await.expect("open"));

    let first = shop::order(1);
    let bad_id = ObjectId::new();
    let last = shop::order(3);
    orders.insert_one(&first).await.unwrap();
    // Another program, mongosh, stores a total as a string (the collection has no validator).
    let script = format!(
        "db.getSiblingDB({:?}).getCollection({:?}).insertOne({{ _id: ObjectId({:?}), t: 'three euros' }});",
        db.name(),
        Order::COLLECTION,
        bad_id.to_hex()
    );
    let uri = odm::testing::server().uri().to_owned();
    let shell = tokio::task::spawn_blocking(move || odm::testing::run_mongosh(&uri, &script)).await.unwrap();
    let shell = shell.expect("mongosh runs");
    assert!(shell.status.success(), "{}", String::from_utf8_lossy(&shell.stderr));
    assert_eq!(other_program.count_documents(doc! { "_id": bad_id }).await.unwrap(), 1, "written by the shell");
    orders.insert_one(&last).await.unwrap();

    let good = next(&mut changes).await;
    assert_eq!(good.change, Change::Insert { id: first.id.into(), value: first.clone() });
    // The bad event: everything a consumer needs to record it and skip it.
    let bad = next_undecodable(&mut changes).await;
    assert_eq!(bad.id, Bson::from(bad_id));
    assert_eq!(bad.operation, "insert");
    assert_eq!(bad.raw.get_str("t").ok(), Some("three euros"));
    assert!(matches!(*bad.error, Error::Decode(ref d) if d.stored_path == "t"), "{:?}", bad.error);
    assert!(!format!("{bad:?}").contains("RawDocumentBuf"), "{bad:?}");
    let text = bad.to_string();
    assert!(text.contains("`insert`") && text.contains(&bad_id.to_hex()) && text.contains("Order.total"), "{text}");
    assert_ne!(bad.token, good.token);
    // Recorded and skipped: the same stream goes on with the next good event.
    assert_eq!(next(&mut changes).await.change, Change::Insert { id: last.id.into(), value: last.clone() });

    // A consumer that stopped on the error and resumes after the last good event meets it again, with the same
    // token; resuming after that token goes past it.
    let mut again = Box::pin(orders.watch().full_document().resume_after(good.token).stream().await.expect("resume"));
    assert_eq!(next_undecodable(&mut again).await.token, bad.token);
    let mut past =
        Box::pin(orders.watch().full_document().resume_after(bad.token.clone()).stream().await.expect("skip"));
    assert_eq!(next(&mut past).await.change, Change::Insert { id: last.id.into(), value: last });
}

#[tokio::test]
async fn an_update_to_a_document_that_no_longer_decodes_still_gives_its_id_and_changed_paths() {
    let db = odm::testing::database("watch_undecodable_update").await;
    if !support::server::runs_change_streams(db.client()).await {
        return;
    }
    let (orders, other_program) = shared_orders(&db).await;
    let order = shop::order(7);
    orders.insert_one(&order).await.unwrap();
    let mut changes = Box::pin(orders.watch().full_document().stream().await.expect("open"));

    other_program.update_one(doc! { "_id": order.id }, doc! { "$set": { "t": "seven" } }).await.unwrap();
    match next(&mut changes).await.change {
        Change::Update { id, set, unset, value } => {
            assert_eq!(id, Bson::from(order.id));
            assert_eq!(set, doc! { "t": "seven" });
            assert!(unset.is_empty(), "{unset:?}");
            // Looked up when the event was read, before anything else changed it.
            let bad = value.expect("the document exists: its lookup comes back").expect_err("it does not decode");
            assert_eq!(bad.raw.get_str("t").ok(), Some("seven"));
            assert!(matches!(*bad.error, Error::Decode(ref d) if d.stored_path == "t"), "{bad:?}");
            assert!(!format!("{bad:?}").contains("RawDocumentBuf"), "{bad:?}");
        }
        other => panic!("{other:?}"),
    }

    // A whole document that does not decode is the event's error; the stream goes on.
    other_program.replace_one(doc! { "_id": order.id }, doc! { "t": "eight", "n": 8 }).await.unwrap();
    orders.replace_one(Order::fields().id().eq(order.id), &order).await.unwrap();
    let bad = next_undecodable(&mut changes).await;
    assert_eq!((bad.id, bad.operation.as_str()), (Bson::from(order.id), "replace"));
    assert_eq!(next(&mut changes).await.change, Change::Replace { id: order.id.into(), value: order });
}
