//! Auditing databases against the rules: a collection odm synced and wrote has no finding; each rule the audit checks
//! is planted alone (by the raw driver or mongosh, as another program would) in an otherwise clean collection and is
//! the one finding; MongoDB's sample data and a messy collection show their findings with the documents' `_id`s; the
//! report reads as text and as JSON.

use crate::support::shell::mongosh;
use odm::audit::{Audit, AuditReport};
use odm::bson::{doc, oid::ObjectId, Bson, Document};
use odm::{Collection, Model, SchemaSync, SyncMode};
use serde::{Deserialize, Serialize};

/// A cart as odm writes it: short keys, a bounded array, a named index, its validator synced.
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_cart", index(keys = "customer"))]
struct Cart {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "cu")]
    customer: String,
    #[odm(max_items = 10)]
    #[serde(rename = "it")]
    items: Vec<String>,
}

/// A validator that takes any document, so a planted breach is the only thing wrong.
fn any_document() -> Document {
    doc! { "$jsonSchema": { "bsonType": "object" } }
}

/// Creates `name` in `db` with `validator` (none when `None`) and inserts `docs` with the raw driver.
async fn plant(db: &odm::testing::TestDatabase, name: &str, validator: Option<Document>, docs: Vec<Document>) {
    let mut create = db.create_collection(name);
    if let Some(v) = validator {
        create = create.validator(v);
    }
    create.await.expect("create");
    if !docs.is_empty() {
        db.collection::<Document>(name).insert_many(docs).bypass_document_validation(true).await.expect("insert");
    }
}

async fn audit(db: &odm::testing::TestDatabase, name: &str) -> AuditReport {
    Audit::new(db).collections([name]).await.expect("audit")
}

fn rules(report: &AuditReport) -> Vec<&'static str> {
    report.findings().map(|(_, f)| f.rule).collect()
}

fn clean(n: i32) -> Document {
    doc! { "_id": ObjectId::new(), "n": n }
}

#[tokio::test]
async fn a_collection_odm_synced_and_wrote_has_no_finding() {
    let db = odm::testing::database("au_clean").await;
    let synced = SchemaSync::new(db.client()).model::<Cart>().mode(SyncMode::Apply).database(db.name()).await;
    synced.expect("sync").require_in_sync().expect("in sync");
    let carts = Collection::<Cart>::new(&db);
    for i in 0..5 {
        let cart = Cart { id: ObjectId::new(), customer: format!("c{i}"), items: vec!["a".into(); i] };
        carts.insert_one(&cart).await.unwrap();
    }
    let report = audit(&db, "shop_cart").await;
    assert!(report.is_clean(), "{report}");
    assert_eq!(report.collections[0].documents, 5);
}

#[tokio::test]
async fn each_rule_planted_alone_is_the_one_finding() {
    let db = odm::testing::database("au_rules").await;
    let id = ObjectId::new();
    let long_name = format!("shop_{}", "x".repeat(64 - db.name().len() - 1 - 5 + 1));
    let cases: Vec<(&str, &str, Option<Document>, Vec<Document>)> = vec![
        ("name-case", "ShopOrder", Some(any_document()), vec![clean(1)]),
        ("name-system", "system_users", Some(any_document()), vec![clean(1)]),
        ("name-length", long_name.as_str(), Some(any_document()), vec![clean(1)]),
        ("name-module", "base_codes", Some(any_document()), vec![clean(1)]),
        ("key-short", "shop_long_key", Some(any_document()), vec![doc! { "_id": id, "preferred_language": 1 }]),
        ("key-dot", "shop_dotted", Some(any_document()), vec![doc! { "_id": ObjectId::new(), "a.b": 1 }]),
        ("key-dollar", "shop_dollar", Some(any_document()), vec![doc! { "_id": ObjectId::new(), "a": { "$x": 1 } }]),
        ("key-empty", "shop_empty_key", Some(any_document()), vec![doc! { "_id": ObjectId::new(), "": 1 }]),
        ("type-one-bson-type", "shop_mixed", Some(any_document()), vec![clean(1), doc! { "_id": id, "n": "one" }]),
        ("type-option-absent", "shop_nulls", Some(any_document()), vec![clean(1), doc! { "_id": id, "n": Bson::Null }]),
        ("date-string", "shop_dates", Some(any_document()), vec![doc! { "_id": id, "at": "2024-05-01T10:00:00Z" }]),
        ("type-number-string", "shop_texts", Some(any_document()), vec![doc! { "_id": id, "q": "12" }]),
        ("array-bound", "shop_tags", Some(any_document()), vec![doc! { "_id": id, "tags": ["a", "b"] }]),
        (
            "counter-in-step",
            "shop_counted",
            Some(any_document()),
            vec![
                doc! { "_id": ObjectId::new(), "tags": ["a"], "tags_count": 1 },
                doc! { "_id": id, "tags": ["a"], "tags_count": 2 },
            ],
        ),
        ("id-objectid", "shop_named", Some(any_document()), vec![doc! { "_id": "ada", "n": 1 }]),
        ("data-validator", "shop_open", None, vec![clean(1)]),
        (
            "data-validator",
            "shop_refused",
            Some(doc! { "$jsonSchema": { "bsonType": "object", "required": ["n"] } }),
            vec![clean(1), doc! { "_id": id }],
        ),
        ("capped-log", "log_shop_event", Some(any_document()), vec![clean(1)]),
    ];
    // Keys holding `.` or starting with `$` are taken by inserts from MongoDB 5.0 (wire version 13) on.
    let dotted_keys = db.server_info().await.expect("server info").max_wire_version >= 13;
    for (rule, name, validator, docs) in cases {
        if matches!(rule, "key-dot" | "key-dollar") && !dotted_keys {
            continue;
        }
        let planted_id = docs.iter().find(|d| d.get("_id") == Some(&Bson::ObjectId(id))).map(|_| Bson::ObjectId(id));
        plant(&db, name, validator, docs).await;
        let report = audit(&db, name).await;
        assert_eq!(rules(&report), [rule], "{name}: {report}");
        let finding = report.findings().next().unwrap().1;
        if let Some(planted) = planted_id {
            assert_eq!(finding.ids, [planted], "{name}: the planted document is named");
        }
        assert!(finding.message.contains(&format!("(rule `{rule}`)")), "{}", finding.message);
    }
    // An index not named `idx_<fields>`, on an otherwise clean collection.
    plant(&db, "shop_indexed", Some(any_document()), vec![clean(1)]).await;
    db.collection::<Document>("shop_indexed")
        .create_index(odm::mongodb::IndexModel::builder().keys(doc! { "n": 1 }).build())
        .await
        .unwrap();
    let report = audit(&db, "shop_indexed").await;
    assert_eq!(rules(&report), ["index-name"], "{report}");
    assert!(report.findings().next().unwrap().1.message.contains("`n_1`"));
}

#[tokio::test]
async fn a_name_starting_with_the_letters_of_system_is_not_the_servers() {
    // The derive refuses `system` as a name's first part, not every name starting with those letters: the audit reads
    // the rule the same way, so its advice never asks to rename what a model may keep.
    let db = odm::testing::database("au_system").await;
    for (name, expected) in [("systemlog", vec![]), ("system_users", vec!["name-system"])] {
        plant(&db, name, Some(any_document()), vec![clean(1)]).await;
        let report = audit(&db, name).await;
        assert_eq!(rules(&report), expected, "{name}: {report}");
    }
}

#[tokio::test]
async fn a_document_near_the_size_limit_is_named() {
    let db = odm::testing::database("au_size").await;
    let id = ObjectId::new();
    let big = "x".repeat(13 * 1024 * 1024);
    plant(&db, "shop_blob", Some(any_document()), vec![clean(1), doc! { "_id": id, "b": big }]).await;
    let report = audit(&db, "shop_blob").await;
    assert_eq!(rules(&report), ["model-size"], "{report}");
    assert_eq!(report.findings().next().unwrap().1.ids, [Bson::ObjectId(id)]);
}

#[tokio::test]
async fn the_sample_data_and_a_messy_collection_show_their_findings() {
    let db = odm::testing::database("au_mflix").await;
    let file = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/sample_mflix/theaters.json");
    let (code, out) = mongosh(&format!(
        "const lines = require('fs').readFileSync({:?}, 'utf8').split('\\n').filter(l => l.trim());
         db.getSiblingDB({:?}).theaters.insertMany(lines.map(l => EJSON.parse(l)));
         db.getSiblingDB({:?}).createCollection('UserEvents');
         db.getSiblingDB({:?}).UserEvents.insertMany([
           {{ _id: 1, customerIdentifier: 'a', at: '2024-05-01', qty: 3, tags: ['x'] }},
           {{ _id: 2, customerIdentifier: 'b', at: ISODate('2024-05-02'), qty: '4', tags: ['x', 'y'], tags_count: 1 }}
         ]);",
        file.display().to_string(),
        db.name(),
        db.name(),
        db.name()
    ));
    assert_eq!(code, 0, "mongosh: {out}");
    let report = Audit::new(&db).await.unwrap();
    let theaters: Vec<&str> = report.collections[1].findings.iter().map(|f| f.rule).collect();
    assert_eq!(report.collections[1].name, "theaters");
    // Zip codes are not flagged as numbers: 112 of them are not numbers (107 start with a zero), so they are codes.
    assert_eq!(theaters, ["type-option-absent", "array-bound", "data-validator"], "{report}");
    let events = &report.collections[0];
    assert_eq!(events.name, "UserEvents");
    let found: Vec<(&str, Option<&str>)> = events.findings.iter().map(|f| (f.rule, f.path.as_deref())).collect();
    assert_eq!(
        found,
        [
            ("name-case", None),
            ("key-short", Some("customerIdentifier")),
            ("type-one-bson-type", Some("at")),
            ("date-string", Some("at")),
            ("type-one-bson-type", Some("qty")),
            ("type-number-string", Some("qty")),
            ("counter-in-step", Some("tags_count")),
            ("id-objectid", Some("_id")),
            ("data-validator", None),
        ],
        "{report}"
    );
    let text = report.to_string();
    assert!(text.contains("[key-short] `customerIdentifier`"), "{text}");
    let json: serde_json::Value = serde_json::from_str(&report.to_json()).expect("JSON");
    assert_eq!(json["collections"][0]["findings"][1]["rule"], "key-short");
    assert_eq!(json["collections"][0]["findings"][1]["ids"], serde_json::json!([1, 2]));
}
