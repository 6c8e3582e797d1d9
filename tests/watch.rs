//! Typed change streams against a real server: every kind of change decoded as the model, a filter applied on the
//! document, and a stream resumed after a given event.

use futures_util::{Stream, TryStreamExt};
use odm::bson::{doc, oid::ObjectId};
use odm::watch::{Change, ChangeEvent};
use odm::{Collection, Model, Update};
use serde::{Deserialize, Serialize};
use std::time::Duration;

#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "shop_order")]
struct Order {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "t")]
    total: i64,
    #[serde(rename = "n", skip_serializing_if = "Option::is_none")]
    note: Option<String>,
}

async fn next<S: Stream<Item = odm::error::Result<ChangeEvent<Order>>> + Unpin>(s: &mut S) -> ChangeEvent<Order> {
    tokio::time::timeout(Duration::from_secs(10), s.try_next())
        .await
        .expect("an event within 10 s")
        .expect("event")
        .expect("stream open")
}

#[tokio::test]
async fn every_change_comes_decoded_and_a_stream_resumes_after_any_event() {
    let db = odm::testing::database("watch").await;
    odm::create_collection::<Order>(&db).await.unwrap();
    let orders = Collection::<Order>::new(&db);
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
            assert!(value.as_ref().is_none_or(|v| v.id == order.id), "{value:?}");
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
    let small = Order { id: ObjectId::new(), total: 1, note: None };
    let large = Order { id: ObjectId::new(), total: 500, note: None };
    orders.insert_many([&small, &large]).await.unwrap();
    assert_eq!(next(&mut big).await.change, Change::Insert { id: large.id.into(), value: large });
}
