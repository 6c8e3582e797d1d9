// Unknown capped options are errors.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "log_order_event")]
#[odm(capped(size = 1048576, docs = 1000))]
struct OrderEvent {
    #[serde(rename = "m")]
    message: String,
}

fn main() {}
