// A time-series collection names its time field.
use odm::bson::{oid::ObjectId, DateTime};
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "iot_measurement", timeseries(meta = "sensor", granularity = "hours"))]
struct Measurement {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "t")]
    at: DateTime,
    #[serde(rename = "s")]
    sensor: String,
}

fn main() {}
