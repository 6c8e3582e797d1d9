// The key fields exist and hold one value in every document.
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
#[odm(collection = "iot_reading_bucket")]
#[odm(bucket(key = "sensr, day, tags, site, id", items = "readings"))]
#[odm(index(keys = "sensor, count"))]
struct SensorDay {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "s")]
    sensor: String,
    #[serde(rename = "d", skip_serializing_if = "Option::is_none")]
    day: Option<DateTime>,
    #[serde(rename = "g")]
    #[odm(max_items = 4)]
    tags: Vec<String>,
    #[serde(rename = "si")]
    site: String,
    #[serde(rename = "r")]
    #[odm(max_items = 200, counter = "count")]
    readings: Vec<Reading>,
    #[serde(rename = "n")]
    count: i32,
}

fn main() {}
