// A revision field: its stored key and value are known to the runtime, the diff never writes it, and it is
// filterable and sortable like any field. A revision behind a type alias passes the generated const assertion.
use odm::bson::{doc, oid::ObjectId};
use odm::{Model, Update};
use serde::{Deserialize, Serialize};

type Rev = u32;

#[derive(Model, Serialize, Deserialize, Clone)]
#[odm(collection = "shop_cart")]
struct Cart {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "rv")]
    #[odm(revision)]
    revision: i64,
    #[serde(rename = "n")]
    note: String,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_tally")]
struct Tally {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "v")]
    #[odm(revision)]
    version: Rev,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_plain")]
struct Plain {
    #[serde(rename = "_id")]
    id: ObjectId,
}

fn main() {
    assert_eq!(Cart::REVISION, Some("rv"));
    assert_eq!(Tally::REVISION, Some("v"));
    assert_eq!(Plain::REVISION, None);
    let old = Cart { id: ObjectId::new(), revision: 4, note: "a".into() };
    assert_eq!(old.revision(), Some(4));
    assert_eq!(Tally { id: ObjectId::new(), version: 9 }.revision(), Some(9));
    assert_eq!(Plain { id: ObjectId::new() }.revision(), None);

    // The diff writes the note, never the revision (the write bumps it).
    let mut new = old.clone();
    new.note = "b".into();
    new.revision = 5;
    assert_eq!(Update::diff(&old, &new).build().unwrap().update, doc! { "$set": { "n": "b" } });

    let f = Cart::fields();
    assert_eq!(f.revision().eq(4).into_document().unwrap(), doc! { "rv": 4_i64 });
    assert_eq!(f.revision().desc().into_document().unwrap(), doc! { "rv": -1 });
    // The validator requires it like any required field.
    let schema = Cart::validator();
    let required = schema.get_document("$jsonSchema").unwrap().get_array("required").unwrap();
    assert!(required.iter().any(|k| k.as_str() == Some("rv")));
}
