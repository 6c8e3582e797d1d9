//! The generated validators, compared with the exact documents a DBA would write by hand (no server needed).

use crate::support;

use odm::bson::{doc, oid::ObjectId, Bson, DateTime};
use odm::{BsonSchema, Embedded, Model};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use support::models::families;

/// A product review.
#[derive(Model, Serialize, Deserialize)]
#[odm(db = "shop", collection = "product_review", closed)]
struct ProductReview {
    #[serde(rename = "_id")]
    id: ObjectId,
    /// Who wrote it.
    #[serde(rename = "u")]
    user: ObjectId,
    #[serde(rename = "r")]
    rating: u8,
    #[serde(rename = "v")]
    #[odm(max_items = 1000, counter = "helpful_votes")]
    voter_ids: Vec<ObjectId>,
    #[serde(rename = "hv")]
    helpful_votes: i64,
    #[serde(rename = "at")]
    created_at: DateTime,
    #[serde(rename = "t", skip_serializing_if = "Option::is_none")]
    #[odm(max_len = 2000)]
    text: Option<String>,
    #[serde(rename = "rp")]
    #[odm(nullable)]
    reply: Option<String>,
}

#[test]
fn review_validator_is_exact() {
    let expected = doc! {
        "$jsonSchema": {
            "bsonType": "object",
            "description": "A product review.",
            "required": ["_id", "u", "r", "v", "hv", "at", "rp"],
            "properties": {
                "_id": { "bsonType": "objectId" },
                "u": { "bsonType": "objectId", "description": "Who wrote it." },
                "r": { "bsonType": "int" },
                "v": { "bsonType": "array", "items": { "bsonType": "objectId" }, "maxItems": 1000_i64 },
                "hv": { "bsonType": "long" },
                "at": { "bsonType": "date" },
                "t": { "bsonType": "string", "maxLength": 2000_i64 },
                "rp": { "bsonType": ["string", "null"] },
            },
            "additionalProperties": false,
        },
        "$expr": {
            "$eq": [
                { "$cond": [{ "$isArray": ["$v"] }, { "$size": "$v" }, 0] },
                { "$ifNull": ["$hv", 0] },
            ]
        },
    };
    assert_eq!(ProductReview::validator(), expected);
    assert_eq!(ProductReview::COLLECTION, "product_review");
    assert_eq!(ProductReview::DATABASE, Some("shop"));
}

#[derive(Embedded, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum Level {
    Low,
    VeryHigh,
    #[serde(skip)]
    #[allow(dead_code)]
    Internal,
}

#[derive(Embedded, Serialize, Deserialize)]
#[serde(tag = "k")]
enum Shape {
    /// A dot.
    Dot,
    Circle {
        #[serde(rename = "r")]
        radius: f64,
    },
}

#[test]
fn enums() {
    assert_eq!(Level::bson_schema(), doc! { "bsonType": "string", "enum": ["LOW", "VERY_HIGH"] });
    assert_eq!(
        Shape::bson_schema(),
        doc! {
            "bsonType": "object",
            "required": ["k"],
            "properties": { "k": { "enum": ["Dot", "Circle"] } },
            "oneOf": [
                { "bsonType": "object", "description": "A dot.", "required": ["k"], "properties": { "k": { "enum": ["Dot"] } } },
                {
                    "bsonType": "object",
                    "required": ["k", "r"],
                    "properties": { "k": { "enum": ["Circle"] }, "r": { "bsonType": "double" } },
                },
            ],
        }
    );
}

#[test]
fn integer_and_float_widths_map_to_what_bson_writes() {
    for (schema, alias) in [
        (i8::bson_schema(), "int"),
        (i16::bson_schema(), "int"),
        (i32::bson_schema(), "int"),
        (u8::bson_schema(), "int"),
        (u16::bson_schema(), "int"),
        (u32::bson_schema(), "long"),
        (i64::bson_schema(), "long"),
        (f32::bson_schema(), "double"),
        (f64::bson_schema(), "double"),
    ] {
        assert_eq!(schema, doc! { "bsonType": alias });
    }
    // And the serializer agrees.
    let written = odm::bson::serialize_to_document(&doc! {}).expect("empty");
    assert!(written.is_empty());
    #[derive(Serialize)]
    struct W {
        a: u16,
        b: u32,
        c: f32,
    }
    let w = odm::bson::serialize_to_document(&W { a: 1, b: 2, c: 3.0 }).expect("serialize");
    assert!(matches!(w.get("a"), Some(Bson::Int32(1))));
    assert!(matches!(w.get("b"), Some(Bson::Int64(2))));
    assert!(matches!(w.get("c"), Some(Bson::Double(_))));
}

#[test]
fn maps_and_fixed_arrays() {
    assert_eq!(
        HashMap::<String, families::Line>::bson_schema(),
        doc! {
            "bsonType": "object",
            "patternProperties": { odm::schema::MAP_KEY_PATTERN: families::Line::bson_schema() },
            "additionalProperties": false,
        }
    );
    assert_eq!(
        <[i32; 2]>::bson_schema(),
        doc! { "bsonType": "array", "items": { "bsonType": "int" }, "minItems": 2_i64, "maxItems": 2_i64 }
    );
}

#[test]
fn nested_counters_are_checked_inside_arrays() {
    // `Nested.reviews[*].voter_ids` is counted by `helpful_votes` two levels down.
    let v = families::Nested::validator();
    assert_eq!(
        v.get("$expr").expect("$expr"),
        &Bson::from(doc! {
            "$allElementsTrue": [{
                "$map": {
                    "input": { "$cond": [{ "$isArray": ["$r"] }, "$r", []] },
                    "as": "e0",
                    "in": { "$eq": [
                        { "$cond": [{ "$isArray": ["$$e0.v"] }, { "$size": "$$e0.v" }, 0] },
                        { "$ifNull": ["$$e0.hv", 0] },
                    ] },
                }
            }]
        })
    );
}

#[test]
fn field_metadata_maps_stored_paths_to_rust_paths() {
    let meta = families::Nested::type_meta().expect("meta");
    assert_eq!(meta.rust_path(["r", "3", "v", "0"]), "reviews[3].voter_ids[0]");
    assert_eq!(meta.rust_path(["a", "c"]), "address.city");
    assert_eq!(meta.rust_path(["unknown", "x"]), "unknown.x");
}

#[test]
fn only_types_with_run_time_keys_need_the_key_walk() {
    assert!(!ProductReview::dynamic_keys(32), "fixed keys were checked at compile time");
    assert!(!families::Nested::dynamic_keys(32));
    assert!(!families::Enums::dynamic_keys(32));
    assert!(families::Maps::dynamic_keys(32), "map keys are chosen at run time");
    assert!(<Vec<Option<HashMap<String, i32>>>>::dynamic_keys(32));
    assert!(odm::bson::Document::dynamic_keys(32));
}
