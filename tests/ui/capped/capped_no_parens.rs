// `capped` takes its size in parentheses.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "log_order_event")]
#[odm(capped)]
struct OrderEvent {
    #[serde(rename = "m")]
    message: String,
}

fn main() {}
