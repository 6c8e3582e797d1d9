// `computed-field`: a field holds one aggregate.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "iot_two")]
struct Sensor {
    #[serde(rename = "r")]
    #[odm(max_items = 50)]
    readings: Vec<i32>,
    #[serde(rename = "t")]
    #[odm(sum = "readings", max = "readings")]
    total: i64,
}

fn main() {}
