// A polymorphic model: `#[derive(Model)]` on an internally tagged enum, with collection-level attributes as on a
// struct, every field rule inside variants, newtype and unit variants.
use odm::bson::{doc, oid::ObjectId, Bson};
use odm::{Embedded, Model};
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
struct Referral {
    #[serde(rename = "by")]
    by: String,
}

/// What a visitor did.
#[derive(Model, Serialize, Deserialize)]
#[odm(db = "web", collection = "web_event", closed, validation_level = "moderate", max_key_len = 4)]
#[serde(tag = "kind", rename_all = "snake_case", rename_all_fields = "camelCase")]
enum Event {
    Click {
        #[serde(rename = "_id")]
        id: ObjectId,
        x: i32,
    },
    Purchase {
        #[serde(rename = "_id")]
        id: ObjectId,
        #[serde(rename = "sk")]
        #[odm(max_items = 5, counter = "count")]
        skus: Vec<String>,
        #[serde(rename = "n")]
        count: i64,
    },
    #[serde(rename = "ref")]
    Referral(Referral),
    Ping {
        #[serde(rename = "_id")]
        id: ObjectId,
    },
}

fn main() {
    assert_eq!(LogEvent::CAPPED, Some(odm::model::Capped { size: 1048576, max: Some(1000) }));
    assert_eq!(Event::COLLECTION, "web_event");
    assert_eq!(Event::DATABASE, Some("web"));
    assert_eq!(Event::VALIDATION_LEVEL, odm::model::ValidationLevel::Moderate);
    let v = Event::validator();
    let schema = v.get_document("$jsonSchema").unwrap();
    assert_eq!(schema.get_document("properties").unwrap(), &doc! { "kind": { "bsonType": "string", "enum": ["click", "purchase", "ref", "ping"] } });
    let branches = schema.get_array("oneOf").unwrap();
    assert_eq!(branches.len(), 4);
    let referral = branches[2].as_document().unwrap();
    assert_eq!(referral.get_document("properties").unwrap().keys().collect::<Vec<_>>(), ["_id", "kind", "by"]);
    assert_eq!(referral.get_bool("additionalProperties").unwrap(), false);
    assert_eq!(
        v.get_document("$expr").unwrap().get_array("$or").unwrap()[0],
        Bson::from(doc! { "$ne": ["$kind", "purchase"] })
    );
}

/// A capped log of events: collection settings work as on a struct.
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "log_web_event", capped(size = 1048576, max = 1000))]
#[serde(tag = "t")]
enum LogEvent {
    #[serde(rename = "c")]
    Click { x: i32 },
    #[serde(rename = "p")]
    Ping,
}
