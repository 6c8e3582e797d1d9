// `name-case`: no fix is suggested when the derive would refuse it in turn (`system_log` is reserved).
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "SystemLog")]
struct Log {
    #[serde(rename = "n")]
    number: i64,
}

fn main() {}
