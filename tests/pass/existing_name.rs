// A collection that already exists under a name outside the naming rules keeps it with `existing_name`: the name
// is used as written, and the model's other rules still hold.
use odm::bson::oid::ObjectId;
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "UserEvents", existing_name)]
struct UserEvent {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "k")]
    kind: String,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "log-archive.2019", existing_name)]
struct Archived {
    #[serde(rename = "n")]
    number: i64,
}

fn main() {
    assert_eq!(<UserEvent as Model>::COLLECTION, "UserEvents");
    assert_eq!(<Archived as Model>::COLLECTION, "log-archive.2019");
    let schema = <UserEvent as Model>::validator();
    let required = schema.get_document("$jsonSchema").unwrap().get_array("required").unwrap();
    assert!(required.iter().any(|k| k.as_str() == Some("k")), "{schema}");
}
