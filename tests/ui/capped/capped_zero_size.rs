// Capped limits are positive.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "log_order_event")]
#[odm(capped(size = 0))]
struct OrderEvent {
    #[serde(rename = "m")]
    message: String,
}

fn main() {}
