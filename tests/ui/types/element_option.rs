// `type-one-bson-type`: array elements cannot be `Option`: serde writes `None` elements as `null`.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "sensor_reading")]
struct Reading {
    #[serde(rename = "v")]
    #[odm(max_items = 60)]
    values: Vec<Option<f64>>,
}

fn main() {}
