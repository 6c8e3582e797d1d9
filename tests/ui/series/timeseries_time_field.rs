// The time field is a date present in every measurement.
use odm::bson::{oid::ObjectId, DateTime};
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "iot_measurement", timeseries(time = "day"))]
struct StringTime {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "d")]
    #[odm(not_a_date)]
    day: String,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "iot_measurement", timeseries(time = "at"))]
struct OptionalTime {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "t", skip_serializing_if = "Option::is_none")]
    at: Option<DateTime>,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "iot_measurement", timeseries(time = "taken"))]
struct UnknownTime {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "t")]
    at: DateTime,
}

fn main() {}
