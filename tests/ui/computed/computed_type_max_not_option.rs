// `computed-type`: a maximum is an Option absent when None.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "iot_highest")]
struct Sensor {
    #[serde(rename = "r")]
    #[odm(max_items = 30)]
    readings: Vec<i32>,
    #[serde(rename = "mx")]
    #[odm(max = "readings")]
    highest: i32,
}

fn main() {}
