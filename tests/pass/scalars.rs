// Every scalar family maps to the BSON type that `bson` serialization writes.
use odm::bson::{doc, oid::ObjectId, Binary, Bson, DateTime, Decimal128, Document, Timestamp, Uuid};
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "test_scalar")]
struct Scalars {
    #[serde(rename = "_id")]
    id: ObjectId,
    a: i8,
    b: i16,
    c: i32,
    d: i64,
    e: u8,
    f: u16,
    g: u32,
    h: f32,
    i: f64,
    j: bool,
    k: String,
    l: char,
    m: DateTime,
    n: Decimal128,
    o: Binary,
    p: Uuid,
    q: Timestamp,
    r: Document,
    s: ObjectId,
    t: Box<i32>,
}

fn main() {
    let v = Scalars::validator();
    let schema = v.get_document("$jsonSchema").unwrap();
    assert_eq!(schema.get_str("bsonType").unwrap(), "object");
    let props = schema.get_document("properties").unwrap();
    let expected = [
        ("_id", "objectId"),
        ("a", "int"),
        ("b", "int"),
        ("c", "int"),
        ("d", "long"),
        ("e", "int"),
        ("f", "int"),
        ("g", "long"),
        ("h", "double"),
        ("i", "double"),
        ("j", "bool"),
        ("k", "string"),
        ("l", "string"),
        ("m", "date"),
        ("n", "decimal"),
        ("o", "binData"),
        ("p", "binData"),
        ("q", "timestamp"),
        ("r", "object"),
        ("s", "objectId"),
        ("t", "int"),
    ];
    for (key, bson_type) in expected {
        let prop = props.get_document(key).unwrap_or_else(|_| panic!("no property `{key}` in {props}"));
        assert_eq!(prop.get_str("bsonType").unwrap(), bson_type, "property `{key}`");
    }
    assert_eq!(props.len(), expected.len());
    // Every field is always written, so every key is required.
    let required = schema.get_array("required").unwrap();
    assert_eq!(required.len(), expected.len());
    assert!(required.contains(&Bson::from("q")));
    // `char` is a one-character string.
    assert_eq!(props.get_document("l").unwrap(), &doc! { "bsonType": "string", "minLength": 1, "maxLength": 1 });
    // No counters: no `$expr`.
    assert!(!v.contains_key("$expr"));
    assert_eq!(<Scalars as Model>::COLLECTION, "test_scalar");
}
