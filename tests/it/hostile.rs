//! Hostile documents written around the ODM with the raw driver must all be rejected by the generated validator
//! (code 121): a wrong type in each field (including int/long/double near-misses), a missing required field,
//! `null` where absence is expected, an extra key in a closed document, an array over its bound, a counter out of
//! step, a value held twice by a set. The untouched document is inserted first as a control, so each rejection is due to the mutation.

use crate::support;

use odm::bson::{oid::ObjectId, Document};
use odm::Model;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use std::collections::BTreeSet;
use support::hostile::{hostile_documents, Rule};
use support::models::families::*;

/// Valid values sampled per model; their hostile variants are all tried.
const SAMPLES: usize = 12;

async fn reject_all<M, S>(family: &str, strategy: S, expect: &[Rule])
where
    M: Model + std::fmt::Debug,
    S: Strategy<Value = M>,
{
    let (db, typed) = support::setup::created::<M>(&format!("hostile_{family}")).await;
    let raw = db.collection::<Document>(M::COLLECTION);
    let validator = M::validator();
    let mut runner = TestRunner::deterministic();
    let mut seen_rules = Vec::new();
    let mut wrong_typed: BTreeSet<String> = BTreeSet::new();
    let mut tried = 0;
    for _ in 0..SAMPLES {
        let value = strategy.new_tree(&mut runner).expect("value").current();
        typed.insert_one(&value).await.unwrap_or_else(|e| panic!("{family}: control value rejected: {e}\n{value:?}"));
        let valid: Document = odm::bson::serialize_to_document(&value).expect("serialize");
        for h in hostile_documents(&validator, &valid) {
            tried += 1;
            let err = match raw.insert_one(&h.doc).await {
                Ok(_) => {
                    panic!("{family}: hostile document accepted: {:?} at `{}` ({})\n{}", h.rule, h.path, h.what, h.doc)
                }
                Err(e) => odm::Error::from_write::<M>(e),
            };
            assert_eq!(err.code(), Some(121), "{family}: {:?} at `{}`: expected code 121, got {err}", h.rule, h.path);
            let odm::Error::Validation(v) = &err else { panic!("{family}: not a validation error: {err}") };
            assert!(!v.failures.is_empty(), "{family}: no field named for {:?} at `{}`: {err}", h.rule, h.path);
            if h.rule == Rule::WrongType {
                // The error names the field, in Rust terms.
                assert!(
                    v.failures
                        .iter()
                        .any(|f| f.stored_path == h.path || h.path.starts_with(&format!("{}.", f.stored_path))),
                    "{family}: error does not name `{}`: {err}",
                    h.path
                );
                wrong_typed.insert(h.path.split('.').next().expect("top key").to_owned());
            }
            if !seen_rules.contains(&h.rule) {
                seen_rules.push(h.rule.clone());
            }
        }
    }
    for rule in expect {
        assert!(seen_rules.contains(rule), "{family}: no hostile document exercised {rule:?}");
    }
    // A wrong type was tried in every top-level field of the model.
    let schema = validator.get_document("$jsonSchema").expect("schema");
    for key in schema.get_document("properties").expect("properties").keys() {
        assert!(wrong_typed.contains(key), "{family}: no wrong-type document for `{key}` (sampled {SAMPLES} values)");
    }
    assert!(tried > 0);
    // Nothing hostile got in.
    assert_eq!(typed.count(odm::Filter::everything()).await.expect("count"), SAMPLES as u64);
}

use Rule::*;

#[tokio::test]
async fn ints_reject_wrong_widths() {
    reject_all("ints", ints(), &[WrongType, MissingRequired, ExtraKey]).await;
}

#[tokio::test]
async fn floats() {
    reject_all("floats", support::models::families::floats(), &[WrongType, MissingRequired, ExtraKey]).await;
}

#[tokio::test]
async fn text_and_lengths() {
    reject_all("text", text(), &[WrongType, MissingRequired, ExtraKey]).await;
}

#[tokio::test]
async fn object_ids_and_bounded_refs() {
    reject_all("oids", oids(), &[WrongType, MissingRequired, ExtraKey, OverBound]).await;
}

#[tokio::test]
async fn dates_are_dates() {
    reject_all("dates", dates(), &[WrongType, MissingRequired, ExtraKey]).await;
}

#[tokio::test]
async fn chrono_dates() {
    reject_all("chrono", chrono_values(), &[WrongType, MissingRequired, ExtraKey, NullWhereAbsent]).await;
}

#[tokio::test]
async fn decimals_and_binary() {
    reject_all("decimals", decimals(), &[WrongType, MissingRequired, ExtraKey]).await;
    reject_all("binary", binaries(), &[WrongType, MissingRequired, ExtraKey]).await;
}

#[tokio::test]
async fn arrays_bounds_and_counters() {
    let expect = [WrongType, MissingRequired, ExtraKey, OverBound, CounterOutOfStep, Duplicate];
    reject_all("arrays", arrays(), &expect).await;
}

#[tokio::test]
async fn options_absent_is_not_null() {
    reject_all("options", options(), &[WrongType, MissingRequired, ExtraKey, NullWhereAbsent, OverBound]).await;
}

#[tokio::test]
async fn nested_documents_and_nested_counters() {
    reject_all(
        "nested",
        nested(),
        &[WrongType, MissingRequired, ExtraKey, OverBound, CounterOutOfStep, NullWhereAbsent],
    )
    .await;
}

#[tokio::test]
async fn enums_tags_and_variants() {
    reject_all("enums", enums(), &[WrongType, MissingRequired, ExtraKey, OverBound]).await;
}

#[tokio::test]
async fn maps_values() {
    reject_all("maps", maps(), &[WrongType, MissingRequired, ExtraKey, BadMapKey]).await;
}

#[tokio::test]
async fn an_id_that_is_not_an_object_id_is_rejected() {
    let (_db, raw) = support::setup::created_raw::<Ints>("hostile_id").await;
    let mut doc =
        odm::bson::serialize_to_document(&Ints { id: ObjectId::new(), a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7 })
            .expect("serialize");
    doc.insert("_id", "custom-id");
    let err = odm::Error::from_write::<Ints>(raw.insert_one(doc).await.expect_err("string _id"));
    assert_eq!(err.code(), Some(121), "{err}");
    assert!(err.to_string().contains("Ints.id: bsonType (expected objectId, found string)"), "{err}");
}
