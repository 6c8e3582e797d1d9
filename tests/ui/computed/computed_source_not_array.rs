// `computed-source`: the named field is an array.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "iot_label")]
struct Sensor {
    #[serde(rename = "l")]
    #[odm(max_len = 10)]
    label: String,
    #[serde(rename = "t")]
    #[odm(sum = "label")]
    total: i64,
}

fn main() {}
