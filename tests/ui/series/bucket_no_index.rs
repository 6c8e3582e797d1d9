// An index on the key fields, then the counter, finds a key's bucket with room.
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
#[odm(bucket(key = "sensor, day", items = "readings"))]
#[odm(index(keys = "sensor, count"))]
struct SensorDay {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "s")]
    sensor: String,
    #[serde(rename = "d")]
    day: DateTime,
    #[serde(rename = "r")]
    #[odm(max_items = 200, counter = "count")]
    readings: Vec<Reading>,
    #[serde(rename = "n")]
    count: i32,
}

fn main() {}
