// `Option` is absent when `None` (skip_serializing_if), or stores `null` on purpose (`nullable`).
use odm::bson::{oid::ObjectId, Bson};
use odm::{Embedded, Model};
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Tier {
    Free,
    Pro,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "test_option")]
struct Profile {
    #[serde(rename = "_id", skip_serializing_if = "Option::is_none")]
    id: Option<ObjectId>,
    #[serde(rename = "nn", skip_serializing_if = "Option::is_none")]
    nickname: Option<String>,
    #[serde(rename = "mn")]
    #[odm(nullable)]
    middle_name: Option<String>,
    #[serde(rename = "t")]
    #[odm(nullable)]
    tier: Option<Tier>,
    #[serde(rename = "a", skip_serializing_if = "Option::is_none")]
    #[odm(nullable)]
    age: Option<i32>,
}

fn main() {
    let v = Profile::validator();
    let schema = v.get_document("$jsonSchema").unwrap();
    let props = schema.get_document("properties").unwrap();
    assert_eq!(props.get_document("_id").unwrap().get_str("bsonType").unwrap(), "objectId");
    assert_eq!(props.get_document("nn").unwrap().get_str("bsonType").unwrap(), "string");
    assert_eq!(
        props.get_document("mn").unwrap().get_array("bsonType").unwrap(),
        &vec![Bson::from("string"), Bson::from("null")]
    );
    assert!(props.get_document("t").unwrap().get_array("enum").unwrap().contains(&Bson::Null));
    // Only fields that are always written are required; `_id` and `nn` may be absent.
    let required = schema.get_array("required").unwrap();
    assert_eq!(required, &vec![Bson::from("mn"), Bson::from("t")]);

    let p = Profile { id: None, nickname: None, middle_name: None, tier: None, age: None };
    let doc = odm::bson::serialize_to_document(&p).unwrap();
    assert!(!doc.contains_key("nn"));
    assert_eq!(doc.get("mn"), Some(&Bson::Null));
}
