// `_id` is an ObjectId unless `custom_id` says otherwise; `mixed` opts a field out of the one-type rule.
use odm::bson::{Bson, Document};
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "test_custom_id")]
struct Account {
    /// The e-mail address is the natural key here.
    #[serde(rename = "_id")]
    #[odm(custom_id)]
    email: String,
    #[serde(rename = "x")]
    #[odm(mixed)]
    extra: Bson,
    #[serde(rename = "r")]
    raw: Document,
}

/// No `_id` field at all: the server assigns an ObjectId, and the validator lists it.
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "test_implicit_id")]
struct Note {
    #[serde(rename = "t")]
    text: String,
}

fn main() {
    let v = Account::validator();
    let props = v.get_document("$jsonSchema").unwrap().get_document("properties").unwrap();
    assert_eq!(props.get_document("_id").unwrap().get_str("bsonType").unwrap(), "string");
    assert!(props.get_document("x").unwrap().is_empty(), "mixed accepts any type");

    let v = Note::validator();
    let props = v.get_document("$jsonSchema").unwrap().get_document("properties").unwrap();
    assert_eq!(props.get_document("_id").unwrap().get_str("bsonType").unwrap(), "objectId");
}
