// The options of a time-series collection take the values the server takes.
use odm::bson::{oid::ObjectId, DateTime};
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "iot_measurement", timeseries(time = "at", meta = "sensor", granularity = "days", expire_after = 0))]
struct Measurement {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "t")]
    at: DateTime,
    #[serde(rename = "s")]
    sensor: String,
}

fn main() {}
