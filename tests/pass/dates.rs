// Dates are stored as BSON dates: `bson::DateTime`, or chrono through bson's converter (`serde(with)` or
// `serde_as`); string fields named like dates opt out with `not_a_date`.
use odm::bson::DateTime;
use odm::Model;
use serde::{Deserialize, Serialize};

#[serde_with::serde_as]
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "test_date")]
struct Event {
    #[serde(rename = "ca")]
    created_at: DateTime,
    #[serde(rename = "ua", with = "odm::bson::serde_helpers::datetime::FromChrono04DateTime")]
    updated_at: chrono::DateTime<chrono::Utc>,
    #[serde(rename = "da")]
    #[serde_as(as = "odm::bson::serde_helpers::datetime::FromChrono04DateTime")]
    deleted_at: chrono::DateTime<chrono::Utc>,
    #[serde(rename = "ms")]
    #[serde_as(as = "odm::bson::serde_helpers::datetime::FromI64")]
    sent_at_millis: i64,
    /// An RFC 3339 string in Rust, a BSON date when stored.
    #[serde(rename = "pa")]
    #[serde_as(as = "odm::bson::serde_helpers::datetime::FromRfc3339String")]
    published_at: String,
    /// A time zone name, not a date.
    #[serde(rename = "tz")]
    #[odm(not_a_date)]
    time_zone: String,
    /// A label that looks like a date only by name.
    #[serde(rename = "ul")]
    #[odm(not_a_date)]
    updated_on: String,
}

fn main() {
    let v = Event::validator();
    let props = v.get_document("$jsonSchema").unwrap().get_document("properties").unwrap();
    for key in ["ca", "ua", "da", "ms", "pa"] {
        assert_eq!(props.get_document(key).unwrap().get_str("bsonType").unwrap(), "date", "property `{key}`");
    }
    assert_eq!(props.get_document("tz").unwrap().get_str("bsonType").unwrap(), "string");
    assert_eq!(props.get_document("tz").unwrap().get_str("description").unwrap(), "A time zone name, not a date.");

    // What serialization writes matches the validator: a BSON date, not a string.
    let now = chrono::Utc::now();
    let e = Event {
        created_at: DateTime::now(),
        updated_at: now,
        deleted_at: now,
        sent_at_millis: 0,
        published_at: "2024-05-01T10:00:00Z".into(),
        time_zone: "UTC".into(),
        updated_on: "monday".into(),
    };
    let doc = odm::bson::serialize_to_document(&e).unwrap();
    for key in ["ca", "ua", "da", "ms", "pa"] {
        assert!(matches!(doc.get(key), Some(odm::bson::Bson::DateTime(_))), "{key}: {doc}");
    }
}
