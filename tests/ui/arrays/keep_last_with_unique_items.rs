// `keep_last` applies to pushes, and a set takes no push: the two cannot go together.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_review")]
struct Review {
    #[serde(rename = "ev")]
    #[odm(max_items = 20, keep_last, unique_items)]
    events: Vec<i64>,
}

fn main() {}
