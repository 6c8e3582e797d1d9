// `update-protected`: a computed field changes only together with its array.
use odm::{Model, Update};
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "iot_sensor")]
struct Sensor {
    #[serde(rename = "r")]
    #[odm(max_items = 100)]
    readings: Vec<i32>,
    #[serde(rename = "t")]
    #[odm(sum = "readings")]
    total: i64,
}

fn main() {
    let f = Sensor::fields();
    let _ = Update::<Sensor>::new().set(f.total(), 5);
}
