// `name-template`: a collection name template holds one of the known placeholders.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "log_app_event_{month}", keep_periods = 12)]
struct Event {
    #[serde(rename = "k")]
    kind: String,
}

fn main() {}
