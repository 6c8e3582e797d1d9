// An older shape that reads dates and numbers stored as text, as `odm::pull` writes version 1: the validator
// describes what is stored (a string, or null where the key is optional), the read gives the value, and text that
// does not parse fails to read rather than giving a made-up value.
use odm::bson::{rawdoc, DateTime};
use odm::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize, Debug)]
struct EventV1 {
    #[serde(rename = "at", deserialize_with = "odm::pull::date_from_text")]
    #[odm(bson_type = "string")]
    at: DateTime,
    #[serde(rename = "qty", deserialize_with = "odm::pull::number_from_text")]
    #[odm(bson_type = "string")]
    quantity: i64,
    #[serde(
        rename = "seen",
        skip_serializing_if = "Option::is_none",
        default,
        deserialize_with = "odm::pull::optional_date_from_text"
    )]
    #[odm(nullable, bson_type = "string")]
    seen: Option<DateTime>,
}

fn main() {
    let schema = <EventV1 as BsonSchema>::bson_schema();
    let properties = schema.get_document("properties").unwrap();
    assert_eq!(properties.get_document("at").unwrap().get_str("bsonType").unwrap(), "string");
    assert_eq!(properties.get_document("qty").unwrap().get_str("bsonType").unwrap(), "string");
    let required = schema.get_array("required").unwrap();
    assert!(!required.iter().any(|k| k.as_str() == Some("seen")), "{schema}");

    let read = |d: odm::bson::RawDocumentBuf| odm::bson::deserialize_from_slice::<EventV1>(d.as_bytes());
    let event = read(rawdoc! { "at": "2024-05-01T12:00:00Z", "qty": "12" }).unwrap();
    assert_eq!((event.at.timestamp_millis(), event.quantity, event.seen), (1_714_564_800_000, 12, None));
    let seen = read(rawdoc! { "at": "2024-05-01", "qty": "3", "seen": "2024-05-02" }).unwrap().seen;
    assert_eq!(seen.map(|d| d.timestamp_millis()), Some(1_714_608_000_000));
    assert!(read(rawdoc! { "at": "2024-05-01", "qty": "3", "seen": null }).unwrap().seen.is_none());
    assert!(read(rawdoc! { "at": "someday", "qty": "3" }).is_err());
    assert!(read(rawdoc! { "at": "2024-05-01", "qty": "three" }).is_err());
}
