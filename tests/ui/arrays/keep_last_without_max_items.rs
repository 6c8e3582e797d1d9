// `keep_last` keeps the last `max_items` elements on push: it needs `max_items`.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_review")]
struct Review {
    #[serde(rename = "ev")]
    #[odm(keep_last)]
    events: Vec<i64>,
}

fn main() {}
