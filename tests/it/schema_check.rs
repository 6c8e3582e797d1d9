//! The schema checker against a real server: documents written around odm (before the validator existed) are found
//! by the server, explained part by part with Rust paths and sample `_id`s, in batches with progress; reads can
//! skip a document that does not decode instead of failing.

use crate::support;

use odm::bson::{doc, oid::ObjectId, Bson, Document};
use odm::check::{Check, Finding};
use odm::{Collection, Embedded, Filter, Model};
use serde::{Deserialize, Serialize};
use std::sync::{Arc, Mutex};

#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Customer {
    #[serde(rename = "n")]
    name: String,
}

#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "check_order", closed)]
struct Order {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "c")]
    customer: Customer,
    #[serde(rename = "t")]
    total: i64,
    #[serde(rename = "it")]
    #[odm(max_items = 3, counter = "item_count")]
    items: Vec<String>,
    #[serde(rename = "ic")]
    item_count: i32,
}

fn order(total: i64) -> Order {
    Order {
        id: ObjectId::new(),
        customer: Customer { name: "Ada".into() },
        total,
        items: vec!["pen".into()],
        item_count: 1,
    }
}

fn valid_doc(total: i64) -> Document {
    odm::bson::serialize_to_document(&order(total)).expect("serialize")
}

fn finding<'a>(findings: &'a [Finding], check: Check, path: &str) -> &'a Finding {
    findings
        .iter()
        .find(|f| f.check == check && f.path == path)
        .unwrap_or_else(|| panic!("no {check:?} finding at {path}: {findings:#?}"))
}

#[tokio::test]
async fn documents_the_validator_refuses_are_found_explained_and_sampled() {
    let db = odm::testing::database("schema_check").await;
    // The collection exists without a validator, as before odm managed it; documents of every kind land in it.
    db.create_collection(Order::COLLECTION).await.expect("create");
    let raw = db.collection::<Document>(Order::COLLECTION);
    let mut good = Vec::new();
    for i in 0..25 {
        let d = valid_doc(i);
        good.push(d.get("_id").cloned().expect("_id"));
        raw.insert_one(d).await.expect("insert valid");
    }
    let mut wrong_type = valid_doc(1);
    wrong_type.insert("t", "twelve");
    let mut missing_nested = valid_doc(2);
    missing_nested.insert("c", doc! {});
    let mut stray = valid_doc(3);
    stray.insert("zz", 1);
    let mut counter = valid_doc(4);
    counter.insert("ic", 5);
    let mut too_many = valid_doc(5);
    too_many.insert("it", vec!["a", "b", "c", "d"]);
    too_many.insert("ic", 4);
    let mut two_at_once = valid_doc(6);
    two_at_once.insert("t", 1.5);
    two_at_once.insert("zz", true);
    let hostile = [&wrong_type, &missing_nested, &stray, &counter, &too_many, &two_at_once];
    for d in hostile {
        raw.insert_one(d).await.expect("insert hostile");
    }
    let id = |d: &Document| d.get("_id").cloned().expect("_id");
    // Now the model's validator is installed in moderate mode: existing documents stay.
    db.run_command(
        doc! { "collMod": Order::COLLECTION, "validator": Order::validator(), "validationLevel": "moderate" },
    )
    .await
    .expect("collMod");

    let coll = Collection::<Order>::new(&db);
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = seen.clone();
    let report = coll
        .check_schema()
        .batch_size(7)
        .samples(2)
        .on_progress(move |p| sink.lock().unwrap().push(*p))
        .await
        .expect("check");
    println!("{report}");
    // Explained by `_id` against the collection (as on a server without `$documents`), the report is the same.
    let by_id = coll.check_schema().batch_size(7).samples(2).explain_by_id().await.expect("check by _id");
    assert_eq!(by_id, report);
    assert_eq!(report.model, "Order");
    assert_eq!(report.checked, 31);
    assert_eq!(report.failing, 6, "{report}");
    assert!(!report.is_clean());

    let f = &report.findings;
    let type_finding = finding(f, Check::Invalid, "Order.total");
    assert_eq!(type_finding.count, 2, "{type_finding}");
    assert_eq!(type_finding.sample_ids, [id(&wrong_type), id(&two_at_once)]);
    assert_eq!(type_finding.stored_path, "t");
    assert_eq!(type_finding.rule, "type-one-bson-type");
    assert_eq!(finding(f, Check::Missing, "Order.customer.name").sample_ids, [id(&missing_nested)]);
    let extra = finding(f, Check::Unexpected, "");
    assert_eq!((extra.count, extra.sample_ids.clone()), (2, vec![id(&stray), id(&two_at_once)]));
    let counted = finding(f, Check::Counter, "Order.item_count");
    assert_eq!((counted.sample_ids.clone(), counted.array.as_deref()), (vec![id(&counter)], Some("Order.items")));
    assert!(counted.to_string().contains("`Order.item_count` (stored `ic`) differs from the length of `Order.items`"));
    // Four items where three are allowed: the right type, out of bounds (and not reported as a type error).
    let bounds = finding(f, Check::Bounds, "Order.items");
    assert_eq!((bounds.sample_ids.clone(), bounds.rule), (vec![id(&too_many)], "array-bound"));
    assert!(!f.iter().any(|x| x.check == Check::Invalid && x.path == "Order.items"), "{report}");
    assert!(f.iter().all(|x| x.check != Check::Other), "every failure is explained: {report}");
    assert!(f.windows(2).all(|w| w[0].count >= w[1].count), "most frequent first");
    let text = type_finding.to_string();
    assert!(text.starts_with("2 document(s): `Order.total` (stored `t`) does not hold the type"), "{text}");
    assert!(text.contains("(rule `type-one-bson-type`)"), "{text}");
    // No valid document is named anywhere.
    assert!(f.iter().flat_map(|x| &x.sample_ids).all(|s| !good.contains(s)));

    // Progress after every batch of seven: done grows to the total, with the failing count so far.
    let seen = seen.lock().unwrap().clone();
    assert_eq!(seen.iter().map(|p| p.done).collect::<Vec<_>>(), [7, 14, 21, 28, 31]);
    assert!(seen.iter().all(|p| p.total == 31));
    assert_eq!(seen.last().map(|p| p.failed), Some(6));
    assert!(seen.last().unwrap().eta().is_some_and(|eta| eta.is_zero()));

    // A clean collection reports nothing.
    let (_clean_db, clean) = support::setup::created::<Order>("schema_check_clean").await;
    clean.insert_one(order(1)).await.expect("insert");
    let report = clean.check_schema().await.expect("check");
    assert!(report.is_clean() && report.findings.is_empty() && report.checked == 1, "{report}");
}

#[tokio::test]
async fn a_read_can_skip_documents_that_do_not_decode() {
    let db = odm::testing::database("schema_check_lenient").await;
    db.create_collection(Order::COLLECTION).await.expect("create");
    let raw = db.collection::<Document>(Order::COLLECTION);
    let mut broken = valid_doc(2);
    broken.insert("t", "not a number");
    let broken_id = broken.get("_id").cloned().expect("_id");
    raw.insert_one(valid_doc(1)).await.expect("insert");
    raw.insert_one(&broken).await.expect("insert");
    raw.insert_one(valid_doc(3)).await.expect("insert");
    let coll = Collection::<Order>::new(&db);

    let err = coll.find(Filter::everything()).await.expect_err("a strict read fails on the broken document");
    assert!(matches!(err, odm::Error::Decode(_)), "{err}");

    let read = coll.find(Filter::everything()).sort(Order::fields().total().asc()).all_valid().await.expect("read");
    assert_eq!(read.values.iter().map(|o| o.total).collect::<Vec<_>>(), [1, 3]);
    assert_eq!(read.skipped.len(), 1);
    let skipped = &read.skipped[0];
    assert_eq!(skipped.id, Some(broken_id));
    assert_eq!((skipped.path.as_str(), skipped.stored_path.as_str()), ("Order.total", "t"), "{skipped}");
    let _: Option<&Bson> = skipped.id.as_ref();
}

#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Line {
    #[serde(rename = "s")]
    #[odm(max_len = 8)]
    sku: String,
    #[serde(rename = "q")]
    quantity: i32,
}

#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "check_lines", closed)]
struct Basket {
    #[serde(rename = "_id")]
    #[odm(custom_id)]
    id: i32,
    #[serde(rename = "e")]
    email: odm::Lowercase,
    #[serde(rename = "l")]
    #[odm(max_items = 3)]
    lines: Vec<Line>,
}

/// `(check, Rust path, stored path, rule, sample _ids)` of every finding, sorted, for exact comparison.
fn summary(findings: &[Finding]) -> Vec<(Check, String, String, &'static str, Vec<Bson>)> {
    let mut out: Vec<_> = findings
        .iter()
        .map(|f| (f.check, f.path.clone(), f.stored_path.clone(), f.rule, f.sample_ids.clone()))
        .collect();
    out.sort_by_key(|(_, path, _, rule, _)| (path.clone(), *rule));
    out
}

#[tokio::test]
async fn each_failure_is_named_by_its_deepest_field_and_the_rule_that_failed() {
    let db = odm::testing::database("schema_check_deepest").await;
    // The model's validator in warn mode: documents written around odm, by the raw driver, are kept as they are.
    db.run_command(doc! {
        "create": Basket::COLLECTION, "validator": Basket::validator(), "validationAction": "warn",
    })
    .await
    .expect("create");
    let raw = db.collection::<Document>(Basket::COLLECTION);
    let line = |s: &str, q: Bson| doc! { "s": s, "q": q };
    let basket = |id: i32, e: &str, lines: Vec<Document>| doc! { "_id": id, "e": e, "l": lines };
    raw.insert_many([
        basket(1, "ann@example.com", vec![line("pen", 1.into())]),
        // A string quantity inside the second line: a type failure of the element's field, not of the array.
        basket(2, "bo@example.com", vec![line("pen", 1.into()), line("ink", "two".into())]),
        // Capitals in a lowercase field: a string, so not a type failure.
        basket(3, "Cy@Example.com", vec![line("pen", 1.into())]),
        // A sku over 8 characters: a length failure of the element's field.
        basket(4, "di@example.com", vec![line("fountain-pen", 1.into())]),
        // Four lines where three are allowed: the array's own bound.
        basket(5, "ed@example.com", vec![line("a", 1.into()); 4]),
        // A line without a quantity, and a line that is not a document.
        basket(6, "fi@example.com", vec![doc! { "s": "pen" }]),
        doc! { "_id": 7, "e": "gu@example.com", "l": [1] },
        basket(8, "ha@example.com", vec![]),
    ])
    .await
    .expect("insert around odm");

    let baskets = Collection::<Basket>::new(&db);
    let report = baskets.check_schema().await.expect("check");
    println!("{report}");
    // In batches of three, explained by `_id` against the collection: the same findings.
    let by_id = baskets.check_schema().batch_size(3).explain_by_id().await.expect("check by _id");
    assert_eq!(summary(&by_id.findings), summary(&report.findings), "{by_id}");
    assert_eq!((report.checked, report.failing), (8, 6), "{report}");
    let ids = |ids: &[i32]| ids.iter().map(|i| Bson::Int32(*i)).collect::<Vec<_>>();
    assert_eq!(
        summary(&report.findings),
        [
            (Check::Lowercase, "Basket.email".into(), "e".into(), "string-lowercase", ids(&[3])),
            (Check::Bounds, "Basket.lines".into(), "l".into(), "array-bound", ids(&[5])),
            (Check::Invalid, "Basket.lines[]".into(), "l.$[]".into(), "type-one-bson-type", ids(&[7])),
            (Check::Invalid, "Basket.lines[].quantity".into(), "l.$[].q".into(), "type-one-bson-type", ids(&[2])),
            (Check::Missing, "Basket.lines[].quantity".into(), "l.$[].q".into(), "type-option-absent", ids(&[6])),
            (Check::Bounds, "Basket.lines[].sku".into(), "l.$[].s".into(), "string-length", ids(&[4])),
        ],
        "{report}"
    );
    let text = report.to_string();
    assert!(
        text.contains(
            "1 document(s): `Basket.lines[].quantity` (stored `l.$[].q`) does not hold the type the model \
                       stores (rule `type-one-bson-type`); e.g. _id 2"
        ),
        "{text}"
    );
    assert!(text.contains("`Basket.email` (stored `e`) holds capital letters"), "{text}");
}

/// Progress follows the scan: each count arrives once its batch is checked, the first long before the whole
/// collection is read (not all at the end, after one long read of every failing document), and counts the documents
/// checked and failing by then.
#[tokio::test]
async fn progress_follows_the_documents_as_they_are_checked() {
    let db = odm::testing::database("schema_check_progress").await;
    db.create_collection(Order::COLLECTION).await.expect("create");
    let raw = db.collection::<Document>(Order::COLLECTION);
    let mut docs: Vec<Document> = (0..6000).map(valid_doc).collect();
    // One failing document, near the end: a read of the failing documents alone scans the whole collection first.
    docs[5990].insert("t", "twelve");
    support::raw::insert_outside(&raw, docs).await;
    let coll = Collection::<Order>::new(&db);

    let seen: Arc<Mutex<Vec<(u64, u64, std::time::Instant)>>> = Arc::default();
    let sink = seen.clone();
    let started = std::time::Instant::now();
    let report = coll
        .check_schema()
        .batch_size(500)
        .on_progress(move |p| sink.lock().unwrap().push((p.done, p.failed, std::time::Instant::now())))
        .await
        .expect("check");
    let took = started.elapsed();
    assert_eq!((report.checked, report.failing), (6000, 1), "{report}");
    let seen = seen.lock().unwrap().clone();
    let done: Vec<u64> = seen.iter().map(|s| s.0).collect();
    assert_eq!(done, (1..=12).map(|b| b * 500).collect::<Vec<u64>>());
    let failed: Vec<u64> = seen.iter().map(|s| s.1).collect();
    assert_eq!(failed, [[0; 11].as_slice(), &[1]].concat(), "the failing document counts when its batch is checked");
    let first = seen[0].2 - started;
    println!("first count after {first:?} of {took:?}");
    assert!(first < took / 2, "the first count came after {first:?} of {took:?}");
}
