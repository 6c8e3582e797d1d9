//! Views against the real test server: `find(…).view()` and `find_one(…).view()` send exactly the view's paths (the
//! server returns what a hand-written projection returns, byte for byte), decode them, fail naming the Rust field on
//! a document written around odm, and refuse a versioned model's document stored at an older version instead of
//! reading its keys as the current shape's.

use crate::support;

use odm::bson::{doc, oid::ObjectId, Document, RawDocumentBuf};
use odm::{Collection, Embedded, Error, Model, Upgrade, Version, View};
use serde::{Deserialize, Serialize};
use support::shell::mongosh;

#[derive(Embedded, Serialize, Deserialize, Clone)]
struct Customer {
    #[serde(rename = "nm")]
    name: String,
    #[serde(rename = "em")]
    email: String,
}

#[derive(Embedded, Serialize, Deserialize, Clone)]
struct Line {
    #[serde(rename = "sk")]
    sku: String,
    #[serde(rename = "q")]
    quantity: i32,
    #[serde(rename = "pr")]
    price: i64,
}

#[derive(Model, Serialize, Deserialize, Clone)]
#[odm(collection = "shop_order")]
struct Order {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "st")]
    status: String,
    #[serde(rename = "tot")]
    total: i64,
    #[serde(rename = "cu")]
    customer: Customer,
    #[serde(rename = "ln")]
    #[odm(max_items = 50)]
    lines: Vec<Line>,
    #[serde(rename = "nt", skip_serializing_if = "Option::is_none")]
    note: Option<String>,
    #[serde(rename = "tx")]
    #[odm(max_len = 2000)]
    text: String,
}

#[derive(View, Debug, PartialEq)]
#[odm(of = "Customer")]
struct CustomerName {
    name: String,
}

#[derive(View, Debug, PartialEq)]
#[odm(of = "Line")]
struct LineSku {
    sku: String,
}

/// What a list of orders shows: the customer's name, each line's sku (no `_id` field: the server sends it anyway,
/// so an error can name the document).
#[derive(View, Debug, PartialEq)]
#[odm(of = "Order")]
struct Summary {
    status: String,
    total: i64,
    customer: CustomerName,
    lines: Vec<LineSku>,
    note: Option<String>,
}

fn order(i: i64) -> Order {
    Order {
        id: ObjectId::new(),
        status: if i % 2 == 0 { "paid" } else { "open" }.into(),
        total: 100 * i,
        customer: Customer { name: format!("c{i}"), email: format!("c{i}@example.com") },
        lines: (0..3).map(|j| Line { sku: format!("s{i}{j}"), quantity: 1, price: 10 }).collect(),
        note: (i == 1).then(|| "gift".to_owned()),
        text: "x".repeat(500),
    }
}

fn summary(o: &Order) -> Summary {
    Summary {
        status: o.status.clone(),
        total: o.total,
        customer: CustomerName { name: o.customer.name.clone() },
        lines: o.lines.iter().map(|l| LineSku { sku: l.sku.clone() }).collect(),
        note: o.note.clone(),
    }
}

#[tokio::test]
async fn a_view_reads_exactly_its_paths_as_a_hand_written_projection_does() {
    let test_db = odm::testing::database("view_paths").await;
    let orders: Vec<Order> = (0..4).map(order).collect();
    Collection::<Order>::new(&test_db).insert_many(&orders).await.expect("seed");
    let (client, seen) = support::commands::recording_client().await;
    let db = client.database(test_db.name());
    let coll = Collection::<Order>::new(&db);
    let f = Order::fields();

    let read: Vec<Summary> = coll.find(f.total().gte(100)).sort(f.total().asc()).view::<Summary>().await.expect("view");
    assert_eq!(read, orders[1..].iter().map(summary).collect::<Vec<_>>());
    let one = coll.find_one(f.id().eq(orders[1].id)).view::<Summary>().await.expect("find_one view");
    assert_eq!(one, Some(summary(&orders[1])));

    // What odm sent: the view's paths, the same in both reads.
    let projection = doc! { "st": 1, "tot": 1, "cu.nm": 1, "ln.sk": 1, "nt": 1 };
    let finds: Vec<Document> = seen.started().into_iter().filter(|(n, _)| n == "find").map(|(_, c)| c).collect();
    assert_eq!(finds.len(), 2, "{finds:?}");
    for find in &finds {
        assert_eq!(find.get_document("projection").ok(), Some(&projection), "{find}");
    }
    // What came back equals, byte for byte, what the same hand-written projection returns through the driver.
    let batch = |reply: &Document| -> Vec<Document> {
        let cursor = reply.get_document("cursor").expect("a cursor");
        cursor.get_array("firstBatch").expect("a batch").iter().map(|d| d.as_document().unwrap().clone()).collect()
    };
    let odm_docs: Vec<Document> =
        seen.replies().iter().filter(|(n, _)| n == "find").flat_map(|(_, r)| batch(r)).collect();
    let raw = test_db.collection::<RawDocumentBuf>("shop_order");
    let mut by_hand: Vec<Document> = Vec::new();
    let mut cursor =
        raw.find(doc! { "tot": { "$gte": 100 } }).sort(doc! { "tot": 1 }).projection(projection.clone()).await.unwrap();
    while cursor.advance().await.unwrap() {
        by_hand.push(Document::try_from(cursor.current()).unwrap());
    }
    let one_by_hand = raw.find_one(doc! { "_id": orders[1].id }).projection(projection).await.unwrap().unwrap();
    by_hand.push(Document::try_from(one_by_hand.as_ref()).unwrap());
    assert_eq!(odm_docs.len(), by_hand.len());
    for (a, b) in odm_docs.iter().zip(&by_hand) {
        assert_eq!(odm::bson::serialize_to_vec(a).unwrap(), odm::bson::serialize_to_vec(b).unwrap());
        assert!(!a.contains_key("tx") && !a.contains_key("em"), "{a}");
    }
}

#[tokio::test]
async fn a_document_written_around_odm_fails_naming_the_rust_field() {
    // No validator: the collection holds what mongosh wrote, as a database another service writes to would.
    let db = odm::testing::database("view_hostile").await;
    let ids: Vec<ObjectId> = (0..3).map(|_| ObjectId::new()).collect();
    let script = format!(
        "db.getSiblingDB('{}').shop_order.insertMany([\
           {{_id: ObjectId('{}'), st: 'paid', tot: NumberLong(5), cu: {{nm: 'a'}}, ln: []}},\
           {{_id: ObjectId('{}'), st: 'paid', tot: 'five', cu: {{nm: 'b'}}, ln: []}},\
           {{_id: ObjectId('{}'), st: 'paid', tot: NumberLong(5), ln: []}}])",
        db.name(),
        ids[0],
        ids[1],
        ids[2]
    );
    let (code, out) = mongosh(&script);
    assert_eq!(code, 0, "{out}");
    let coll = Collection::<Order>::new(&db);
    let by_id = |i: usize| Order::fields().id().eq(ids[i]);
    let ok = coll.find_one(by_id(0)).view::<Summary>().await;
    assert_eq!(ok.expect("decodes").map(|s| s.total), Some(5));
    for (id, field) in [(1, "Order.total"), (2, "Order.customer")] {
        let err = coll.find_one(by_id(id)).view::<Summary>().await.expect_err("does not decode");
        let Error::Decode(d) = &err else { panic!("{err:?}") };
        assert_eq!(d.path, field, "{err}");
        assert_eq!(d.id, Some(odm::bson::Bson::ObjectId(ids[id])), "{err}");
    }
}

#[derive(Embedded, Deserialize)]
struct ContactV1 {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "n")]
    name: String,
}

impl Upgrade for ContactV1 {
    type Next = Contact;
    fn upgrade(self) -> Contact {
        Contact { id: self.id, v: Version, first: self.name, city: String::new() }
    }
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "crm_contact", version = 2, older(ContactV1))]
struct Contact {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "_v")]
    v: Version<2>,
    #[serde(rename = "f")]
    first: String,
    #[serde(rename = "ci")]
    city: String,
}

#[derive(View, Debug, PartialEq)]
#[odm(of = "Contact")]
struct FirstName {
    first: String,
}

#[tokio::test]
async fn a_view_of_a_versioned_model_reads_the_current_version_only() {
    let db = odm::testing::database("view_versions").await;
    let coll = Collection::<Contact>::new(&db);
    let current = ObjectId::new();
    coll.insert_one(Contact { id: current, v: Version, first: "Ann".into(), city: "Oslo".into() }).await.unwrap();
    let (older, unknown) = (ObjectId::new(), ObjectId::new());
    let script = format!(
        "db.getSiblingDB('{}').crm_contact.insertMany([{{_id: ObjectId('{older}'), n: 'Bo'}}, \
         {{_id: ObjectId('{unknown}'), _v: 7, f: 'Cy'}}])",
        db.name()
    );
    let (code, out) = mongosh(&script);
    assert_eq!(code, 0, "{out}");
    let f = Contact::fields();
    let read = coll.find_one(f.id().eq(current)).view::<FirstName>().await.unwrap();
    assert_eq!(read, Some(FirstName { first: "Ann".into() }));

    // Version 1 keeps the name under `n`: the view would read `f` as missing, or a reused key as the wrong thing.
    let err = coll.find_one(f.id().eq(older)).view::<FirstName>().await.expect_err("an older version");
    let Error::Decode(d) = &err else { panic!("{err:?}") };
    assert_eq!(d.id, Some(odm::bson::Bson::ObjectId(older)));
    let text = err.to_string();
    assert!(text.contains("without a version key") && text.contains("view `FirstName`"), "{text}");
    assert!(text.contains("migrate"), "{text}");
    // The model itself reads it, migrating.
    assert_eq!(coll.find_one(f.id().eq(older)).await.unwrap().map(|c| c.first), Some("Bo".to_owned()));

    // A version this release does not know: the model's own error.
    let err = coll.find_one(f.id().eq(unknown)).view::<FirstName>().await.expect_err("an unknown version");
    assert!(matches!(&err, Error::Version(v) if v.found == 7), "{err:?}");
    // A `find` stops at the first document it cannot read, as a model's read does.
    let all = coll.find(odm::Filter::everything()).view::<FirstName>().await;
    assert!(all.is_err());
}

#[tokio::test]
async fn a_pipeline_ends_with_the_view_s_projection() {
    let (test_db, _) = support::setup::created::<Order>("view_pipeline").await;
    let orders: Vec<Order> = (0..4).map(order).collect();
    Collection::<Order>::new(&test_db).insert_many(&orders).await.expect("seed");
    let (client, seen) = support::commands::recording_client().await;
    let coll = Collection::<Order>::new(&client.database(test_db.name()));
    let f = Order::fields();
    let paid: Vec<Summary> =
        coll.aggregate().filter(f.status().eq("paid")).sort(f.total().asc()).view::<Summary>().await.expect("run");
    assert_eq!(paid, [summary(&orders[0]), summary(&orders[2])]);
    let sent = seen.started().into_iter().find(|(n, _)| n == "aggregate").expect("an aggregate").1;
    let stages = sent.get_array("pipeline").expect("stages");
    // The view's `$project` (which the pipeline may move before the sort, since it keeps the sort's key).
    let project = doc! { "$project": { "st": 1, "tot": 1, "cu.nm": 1, "ln.sk": 1, "nt": 1 } };
    assert!(stages.iter().any(|s| s.as_document() == Some(&project)), "{stages:?}");
    // Streamed, the same rows.
    use futures_util::TryStreamExt;
    let streamed: Vec<Summary> = coll
        .aggregate()
        .filter(f.status().eq("paid"))
        .sort(f.total().asc())
        .view::<Summary>()
        .stream()
        .await
        .expect("open")
        .try_collect()
        .await
        .expect("read");
    assert_eq!(streamed, paid);
}

#[tokio::test]
async fn a_change_stream_carries_the_view_s_paths_of_each_document() {
    use futures_util::StreamExt;
    use odm::watch::Change;
    // No validator: another program writes what it likes, as in a database odm does not own.
    let db = odm::testing::database("view_watch").await;
    let coll = Collection::<Order>::new(&db);
    if !support::server::runs_change_streams(db.client()).await {
        return;
    }
    let (client, seen) = support::commands::recording_client().await;
    let watched = Collection::<Order>::new(&client.database(db.name()));
    let mut changes = Box::pin(watched.watch().full_document().view::<Summary>().stream().await.expect("open"));
    let first = order(1);
    coll.insert_one(&first).await.unwrap();
    let f = Order::fields();
    coll.update_one(f.id().eq(first.id), odm::Update::new().set(f.status(), "paid".to_owned())).await.unwrap();
    async fn next<S: futures_util::Stream + Unpin>(s: &mut S) -> S::Item {
        tokio::time::timeout(std::time::Duration::from_secs(10), s.next()).await.expect("in time").expect("open")
    }
    match next(&mut changes).await.expect("insert").change {
        Change::Insert { value, .. } => assert_eq!(value, summary(&first)),
        other => panic!("{other:?}"),
    }
    match next(&mut changes).await.expect("update").change {
        Change::Update { set, value, .. } => {
            assert_eq!(set, doc! { "st": "paid" });
            let value = value.expect("looked up").expect("decodes");
            assert_eq!(value, Summary { status: "paid".into(), ..summary(&first) });
        }
        other => panic!("{other:?}"),
    }
    // Written by another program, in a shape the view cannot read: the event's error, the stream goes on.
    let script = format!(
        "db.getSiblingDB('{}').shop_order.insertOne({{_id: ObjectId(), st: 'odd', tot: 'ten', cu: {{nm: 'x', em: 'y'}}, ln: [], tx: 'x'.repeat(100)}})",
        db.name()
    );
    let (code, out) = mongosh(&script);
    assert_eq!(code, 0, "{out}");
    coll.delete_one(f.id().eq(first.id)).await.unwrap();

    match next(&mut changes).await {
        Err(Error::UndecodableChange(c)) => {
            let text = c.error.to_string();
            assert!(text.contains("Order.total"), "{text}");
            // The document as the view's projection left it: no `tx`, the customer's name only.
            assert!(c.raw.get("tx").ok().flatten().is_none() && c.raw.get_str("st").ok() == Some("odd"));
            let customer = c.raw.get_document("cu").expect("the customer");
            assert!(customer.get("em").ok().flatten().is_none() && customer.get_str("nm").ok() == Some("x"));
        }
        other => panic!("expected an undecodable change, got {other:?}"),
    }
    assert!(matches!(next(&mut changes).await.expect("delete").change, Change::Delete { .. }));
    // What the server was asked for: the event's own fields and the view's paths of its document.
    let sent = seen.started().into_iter().find(|(n, _)| n == "aggregate").expect("the change stream").1;
    let stages = sent.get_array("pipeline").expect("stages");
    let project = stages.last().and_then(|s| s.as_document()).and_then(|s| s.get_document("$project").ok());
    let project = project.expect("a $project");
    for path in ["st", "tot", "cu.nm", "ln.sk", "nt", "_id"] {
        assert_eq!(project.get_i32(format!("fullDocument.{path}")).ok(), Some(1), "{project}");
    }
    assert!(!project.contains_key("fullDocument.tx") && project.contains_key("operationType"), "{project}");
}
