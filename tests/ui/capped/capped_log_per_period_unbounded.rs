// `capped-log`: a log collection per period still grows without `keep_periods` (or capped/TTL).
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "log_app_event_{yyyymm}")]
struct Event {
    #[serde(rename = "k")]
    kind: String,
}

fn main() {}
