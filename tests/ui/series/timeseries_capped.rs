// A time-series collection cannot be capped.
use odm::bson::{oid::ObjectId, DateTime};
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "iot_measurement", timeseries(time = "at", expire_after = 86400))]
#[odm(capped(size = 1048576))]
struct Measurement {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "t")]
    at: DateTime,
}

fn main() {}
