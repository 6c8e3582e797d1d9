// The bucket's array is bounded and counted (its `max_items` is the bucket size, its counter how full it is), and
// takes every reading.
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
#[odm(index(keys = "sensor"))]
struct Uncounted {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "s")]
    sensor: String,
    #[serde(rename = "r")]
    #[odm(max_items = 200)]
    readings: Vec<Reading>,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "iot_reading_bucket")]
#[odm(bucket(key = "sensor", items = "readings"))]
#[odm(index(keys = "sensor, count"))]
struct Set {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "s")]
    sensor: String,
    #[serde(rename = "r")]
    #[odm(max_items = 200, counter = "count", unique_items)]
    readings: Vec<i64>,
    #[serde(rename = "n")]
    count: i32,
}

fn main() {}
