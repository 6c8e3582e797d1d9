//! Property tests: the generated validator accepts exactly what serialization writes.
//!
//! For every family of field types, at least 1,000 random values are inserted through the ODM into a collection
//! created from the model with its validator in `strict`/`error` mode, against the real test server. Zero
//! rejections are allowed, and every document must read back byte for byte as it was written.

use crate::support;

use odm::bson::{doc, RawDocumentBuf};
use odm::Model;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, TestRunner};
use std::collections::HashMap;
use std::fmt::Debug;
use support::models::families::*;

/// Values per family.
const CASES: usize = 1_000;
/// Values per `insert_many`.
const BATCH: usize = 250;

async fn round_trip<M, S>(family: &str, strategy: S)
where
    M: Model + Debug + Clone,
    S: Strategy<Value = M>,
{
    assert_eq!(M::VALIDATION_LEVEL, odm::model::ValidationLevel::Strict);
    assert_eq!(M::VALIDATION_ACTION, odm::model::ValidationAction::Error);
    let (_db, coll) = support::setup::created::<M>(family).await;

    let mut runner = TestRunner::new(Config { cases: CASES as u32, ..Config::default() });
    let values: Vec<M> =
        (0..CASES).map(|_| strategy.new_tree(&mut runner).expect("generate a value").current()).collect();

    // Typed updates write values through `BsonSchema::to_bson` (direct for derived structs), inserts through serde:
    // both must give the same bytes.
    let bytes = |b: odm::bson::Bson| match b {
        odm::bson::Bson::Document(d) => RawDocumentBuf::try_from(&d).expect("encode").into_bytes(),
        other => panic!("{family}: a model encodes as a document, not {other:?}"),
    };
    for value in &values {
        let direct = <M as odm::BsonSchema>::to_bson(value).expect("to_bson");
        let serde = odm::bson::serialize_to_bson(value).expect("serialize");
        assert_eq!(bytes(direct), bytes(serde), "{family}: to_bson differs from serde for {value:?}");
    }

    for batch in values.chunks(BATCH) {
        if let Err(err) = coll.insert_many(batch).await {
            // Find the first rejected value and show it with the server's reason.
            for value in batch {
                if let Err(single) = coll.insert_one(value).await {
                    panic!("{family}: the validator rejected a value serialization wrote: {single}\nvalue: {value:?}");
                }
            }
            panic!("{family}: batch insert failed: {err}");
        }
    }
    assert_eq!(
        coll.count(odm::Filter::everything()).await.expect("count"),
        CASES as u64,
        "{family}: every value stored"
    );

    // Byte-for-byte round trip: what we wrote is what the server stores, and it decodes back to the same value.
    let stored: HashMap<Vec<u8>, RawDocumentBuf> = {
        use futures_util::TryStreamExt;
        let docs: Vec<RawDocumentBuf> =
            coll.raw().find(doc! {}).await.expect("find").try_collect().await.expect("read");
        docs.into_iter()
            .map(|d| {
                let id = d.get("_id").expect("raw").expect("_id").as_object_id().expect("oid").bytes().to_vec();
                (id, d)
            })
            .collect()
    };
    for value in &values {
        let written = odm::codec::encode(value).expect("encode");
        let id = written.get("_id").expect("raw").expect("_id").as_object_id().expect("oid").bytes().to_vec();
        let read = stored.get(&id).unwrap_or_else(|| panic!("{family}: value not found: {value:?}"));
        assert_eq!(read.as_bytes(), written.as_bytes(), "{family}: stored bytes differ for {value:?}");
        let decoded: M = odm::codec::decode(read).expect("decode");
        let again = odm::bson::serialize_to_bson(&decoded).expect("re-encode");
        let stored = odm::bson::deserialize_from_slice::<odm::bson::Bson>(read.as_bytes()).expect("raw to bson");
        assert!(support::compare::same_bson(&again, &stored), "{family}: decoded value differs: {value:?}");
    }
}

#[tokio::test]
async fn integers_every_width() {
    round_trip("ints", ints()).await;
}

#[tokio::test]
async fn floats_including_nan_and_infinities() {
    round_trip("floats", floats()).await;
}

#[tokio::test]
async fn bools_strings_chars() {
    round_trip("text", text()).await;
}

#[tokio::test]
async fn object_ids() {
    round_trip("oids", oids()).await;
}

#[tokio::test]
async fn bson_dates_and_timestamps() {
    round_trip("dates", dates()).await;
}

#[tokio::test]
async fn chrono_dates_with_the_bson_helper() {
    round_trip("chrono", chrono_values()).await;
}

#[tokio::test]
async fn decimal128() {
    round_trip("decimals", decimals()).await;
}

#[tokio::test]
async fn binary_and_uuid() {
    round_trip("binary", binaries()).await;
}

#[tokio::test]
async fn arrays_bounded_fixed_nested_counted() {
    round_trip("arrays", arrays()).await;
}

#[tokio::test]
async fn options_absent_and_nullable() {
    round_trip("options", options()).await;
}

#[tokio::test]
async fn nested_embedded_documents() {
    round_trip("nested", nested()).await;
}

#[tokio::test]
async fn unit_and_tagged_enums() {
    round_trip("enums", enums()).await;
}

#[tokio::test]
async fn maps_with_dynamic_keys() {
    round_trip("maps", maps()).await;
}

#[tokio::test]
async fn every_variant_of_a_polymorphic_model() {
    round_trip("polymorphic", activities()).await;
}

/// An author's name, bounded by its type: what the size budget's advice asks for the strings of an array
/// (`max_len` on the array itself bounds nothing inside it).
#[derive(odm::Embedded, serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
struct AuthorName(#[odm(max_len = 40)] String);

/// A book whose authors' names are each bounded.
#[derive(Model, serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "lib_book")]
struct Book {
    #[serde(rename = "_id")]
    id: odm::bson::oid::ObjectId,
    #[serde(rename = "au")]
    #[odm(max_items = 5)]
    authors: Vec<AuthorName>,
}

fn books() -> impl Strategy<Value = Book> {
    (any_oid(), proptest::collection::vec("\\PC{0,40}", 0..=5))
        .prop_map(|(id, names)| Book { id, authors: names.into_iter().map(AuthorName).collect() })
}

fn any_oid() -> impl Strategy<Value = odm::bson::oid::ObjectId> {
    proptest::prelude::any::<[u8; 12]>().prop_map(odm::bson::oid::ObjectId::from_bytes)
}

/// Names within their type's bound round-trip through the validator (the budget's advice, followed); a name one
/// character over it is refused by the server.
#[tokio::test]
async fn strings_of_an_array_bounded_by_their_element_type() {
    round_trip("item_len", books()).await;
    let (_db, books) = support::setup::created::<Book>("item_len_over").await;
    let widest = AuthorName("𝄞".repeat(40));
    books.insert_one(Book { id: odm::bson::oid::ObjectId::new(), authors: vec![widest] }).await.expect("at the bound");
    let over = Book { id: odm::bson::oid::ObjectId::new(), authors: vec![AuthorName("a".repeat(41))] };
    let err = books.insert_one(over).await.expect_err("one character over the bound");
    assert_eq!(err.code(), Some(121), "{err}");
}

/// A label's text, bounded by its type: a map's values are bounded this way (`max_len` on the map is refused); the
/// map's keys, and how many, stay free, so its size budget stays unbounded (`Reason::Map`).
#[derive(odm::Embedded, serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
struct LabelText(#[odm(max_len = 30)] String);

/// A product's labels, each value bounded.
#[derive(Model, serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "lib_labelled")]
struct Labelled {
    #[serde(rename = "_id")]
    id: odm::bson::oid::ObjectId,
    #[serde(rename = "lb")]
    labels: HashMap<String, LabelText>,
}

fn labelled() -> impl Strategy<Value = Labelled> {
    (any_oid(), proptest::collection::hash_map(label_key(), "\\PC{0,30}", 0..6))
        .prop_map(|(id, labels)| Labelled { id, labels: labels.into_iter().map(|(k, v)| (k, LabelText(v))).collect() })
}

/// A key a map may hold: not starting with `$`, without `.` or NUL (rule `key-map`).
fn label_key() -> impl Strategy<Value = String> {
    "[a-z][a-z0-9_]{0,10}"
}

/// Map values within their type's bound round-trip through the validator (`patternProperties` checks each value's
/// `maxLength`); a value one character over it is refused by the server.
#[tokio::test]
async fn strings_of_a_map_bounded_by_their_value_type() {
    let schema = Labelled::validator();
    let labels = schema.get_document("$jsonSchema").unwrap().get_document("properties").unwrap();
    let labels = labels.get_document("lb").unwrap().get_document("patternProperties").unwrap();
    let (_, value) = labels.iter().next().expect("one key pattern");
    let value = value.as_document().expect("a value schema");
    assert_eq!(
        (value.get_str("bsonType").ok(), value.get_i64("maxLength").ok()),
        (Some("string"), Some(30)),
        "{value}"
    );
    round_trip("value_len", labelled()).await;
    let (_db, coll) = support::setup::created::<Labelled>("value_len_over").await;
    let widest = HashMap::from([("colour".to_owned(), LabelText("𝄞".repeat(30)))]);
    coll.insert_one(Labelled { id: odm::bson::oid::ObjectId::new(), labels: widest }).await.expect("at the bound");
    let over = HashMap::from([("colour".to_owned(), LabelText("a".repeat(31)))]);
    let err = coll
        .insert_one(Labelled { id: odm::bson::oid::ObjectId::new(), labels: over })
        .await
        .expect_err("one character over the bound");
    assert_eq!(err.code(), Some(121), "{err}");
}
