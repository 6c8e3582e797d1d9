// `capped-log`: a `log_` collection is capped or has a TTL index.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "log_order_event")]
struct OrderEvent {
    #[serde(rename = "m")]
    message: String,
}

fn main() {}
