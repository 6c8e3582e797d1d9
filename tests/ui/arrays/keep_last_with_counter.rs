// `keep_last` cuts elements on push, so a counter could not follow the array's size.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_review")]
struct Review {
    #[serde(rename = "ev")]
    #[odm(max_items = 20, keep_last, counter = "event_count")]
    events: Vec<i64>,
    #[serde(rename = "ec")]
    event_count: i32,
}

fn main() {}
