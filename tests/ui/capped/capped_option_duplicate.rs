// A capped option is given once; both places are shown.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "log_order_event", capped(size = 4096, max = 10, size = 8192))]
struct Event {
    #[serde(rename = "m")]
    message: String,
}

fn main() {}
