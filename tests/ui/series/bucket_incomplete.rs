// A bucket names its key fields and its counted array, with known options of the right kind.
use odm::bson::{oid::ObjectId, DateTime};
use odm::{Embedded, Model};
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
struct Reading {
    #[serde(rename = "t")]
    at: DateTime,
    #[serde(rename = "v")]
    value: f64,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "iot_reading_bucket", bucket(key = "sensor"))]
struct MissingItems {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "s")]
    sensor: String,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "iot_reading_bucket", bucket)]
struct NoParens {
    #[serde(rename = "_id")]
    id: ObjectId,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "iot_reading_bucket", bucket(key = 3, items = "readings"))]
struct KeyNotAString {
    #[serde(rename = "_id")]
    id: ObjectId,
}

#[derive(Embedded, Serialize, Deserialize)]
#[odm(bucket(key = "sensor", items = "readings"))]
struct OnEmbedded {
    #[serde(rename = "s")]
    sensor: String,
}

fn main() {}
