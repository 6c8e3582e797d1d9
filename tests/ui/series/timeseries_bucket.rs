// A model is a bucket of readings or a time-series collection, not both.
use odm::bson::{oid::ObjectId, DateTime};
use odm::{Embedded, Model};
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
struct Reading {
    #[serde(rename = "v")]
    value: f64,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "iot_reading_bucket", timeseries(time = "day", meta = "sensor"))]
#[odm(bucket(key = "sensor, day", items = "readings"), index(keys = "sensor, day, count"))]
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
