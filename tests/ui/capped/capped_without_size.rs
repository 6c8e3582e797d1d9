// A capped collection needs its size in bytes.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "log_order_event")]
#[odm(capped(max = 1000))]
struct OrderEvent {
    #[serde(rename = "m")]
    message: String,
}

fn main() {}
