// `computed-source`: a keep_last array cuts elements the update does not know.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "iot_sensor")]
struct Sensor {
    #[serde(rename = "r")]
    #[odm(max_items = 100, keep_last)]
    readings: Vec<i32>,
    #[serde(rename = "mx", skip_serializing_if = "Option::is_none")]
    #[odm(max = "readings")]
    max_reading: Option<i32>,
}

fn main() {}
