// `computed-type`: a sum is an i64.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "iot_narrow")]
struct Sensor {
    #[serde(rename = "r")]
    #[odm(max_items = 20)]
    readings: Vec<i32>,
    #[serde(rename = "t")]
    #[odm(sum = "readings")]
    total: i32,
}

fn main() {}
