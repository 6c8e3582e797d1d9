// `capped` is given once.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "log_order_event")]
#[odm(capped(size = 1048576))]
#[odm(capped(size = 4096))]
struct OrderEvent {
    #[serde(rename = "m")]
    message: String,
}

fn main() {}
