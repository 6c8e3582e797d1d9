// `computed-source`: one field of the elements, no deeper.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "iot_deep")]
struct Sensor {
    #[serde(rename = "r")]
    #[odm(max_items = 10)]
    readings: Vec<i64>,
    #[serde(rename = "t")]
    #[odm(sum = "readings.value.raw")]
    total: i64,
}

fn main() {}
