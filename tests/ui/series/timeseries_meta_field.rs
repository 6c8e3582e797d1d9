// The meta field names the series: a field of the model, neither the time field nor an array.
use odm::bson::{oid::ObjectId, DateTime};
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "iot_measurement", timeseries(time = "at", meta = "at"))]
struct MetaIsTime {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "t")]
    at: DateTime,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "iot_measurement", timeseries(time = "at", meta = "tags"))]
struct MetaArray {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "t")]
    at: DateTime,
    #[serde(rename = "g")]
    #[odm(max_items = 4)]
    tags: Vec<String>,
}

fn main() {}
