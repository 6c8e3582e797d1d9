// `computed-source`: the path names an array beside the field.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "iot_sensor")]
struct Sensor {
    #[serde(rename = "r")]
    #[odm(max_items = 100)]
    readings: Vec<i32>,
    #[serde(rename = "t")]
    #[odm(sum = "reading")]
    total: i64,
}

fn main() {}
