// A bucket is opened by adding its first reading, from its key alone: every other field may be absent.
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
#[odm(bucket(key = "sensor", items = "readings"))]
#[odm(index(keys = "sensor, count"))]
struct SensorDay {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "s")]
    sensor: String,
    #[serde(rename = "r")]
    #[odm(max_items = 200, counter = "count")]
    readings: Vec<Reading>,
    #[serde(rename = "n")]
    count: i32,
    #[serde(rename = "u")]
    unit: String,
    #[serde(rename = "nt", skip_serializing_if = "Option::is_none")]
    note: Option<String>,
}

fn main() {}
