// `_id` is an ObjectId unless `custom_id` says otherwise; a second id named `id` says `not_id`; `mixed` opts a
// field out of the one-type rule.
use odm::bson::oid::ObjectId;
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

/// A device known by the server's `_id` and by the id its maker printed on it: a second id, kept on purpose.
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "test_device")]
struct Device {
    #[serde(rename = "_id")]
    key: ObjectId,
    #[odm(not_id)]
    id: ObjectId,
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

    let v = Device::validator();
    let props = v.get_document("$jsonSchema").unwrap().get_document("properties").unwrap();
    assert_eq!(props.get_document("id").unwrap().get_str("bsonType").unwrap(), "objectId", "`not_id` keeps `id`");
    assert_eq!(props.get_document("_id").unwrap().get_str("bsonType").unwrap(), "objectId");
    let device = Device { key: ObjectId::new(), id: ObjectId::new() };
    let stored = odm::bson::serialize_to_document(&device).unwrap();
    assert_eq!(stored.keys().collect::<Vec<_>>(), ["_id", "id"]);

    let v = Note::validator();
    let props = v.get_document("$jsonSchema").unwrap().get_document("properties").unwrap();
    assert_eq!(props.get_document("_id").unwrap().get_str("bsonType").unwrap(), "objectId");
}
