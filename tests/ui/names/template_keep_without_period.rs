// `name-template`: `keep_periods` needs a collection per period, and keeps at least the current one.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_order_{name}", keep_periods = 3)]
struct Order {
    #[serde(rename = "t")]
    total: i64,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "log_app_event_{yyyymm}", keep_periods = 0)]
struct Event {
    #[serde(rename = "k")]
    kind: String,
}

fn main() {}
