// A sharded bucket's shard key lies within the bucket's key: each reading is added by an upsert on the key alone.
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
#[odm(collection = "iot_reading_bucket", shard_key = "id")]
#[odm(bucket(key = "sensor", items = "readings"), index(keys = "sensor, count"))]
struct ById {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "s")]
    sensor: String,
    #[serde(rename = "r")]
    #[odm(max_items = 200, counter = "count")]
    readings: Vec<Reading>,
    #[serde(rename = "n")]
    count: i32,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "iot_site_bucket", shard_key = "site, sensor")]
#[odm(bucket(key = "sensor", items = "readings"), index(keys = "sensor, count"), index(keys = "site, sensor"))]
struct BySite {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "si")]
    site: String,
    #[serde(rename = "s")]
    sensor: String,
    #[serde(rename = "r")]
    #[odm(max_items = 200, counter = "count")]
    readings: Vec<Reading>,
    #[serde(rename = "n")]
    count: i32,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "iot_day_bucket", shard_key = "sensor")]
#[odm(bucket(key = "sensor, day", items = "readings"), index(keys = "sensor, day, count"))]
struct Fine {
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
