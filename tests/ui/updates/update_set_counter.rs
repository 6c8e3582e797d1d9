// An array counter changes only together with its array: its path has no setter.
use odm::{Model, Update};
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_review")]
struct Review {
    #[serde(rename = "vi")]
    #[odm(max_items = 1000, counter = "helpful_votes")]
    voter_ids: Vec<i64>,
    #[serde(rename = "hv")]
    helpful_votes: i32,
}

fn main() {
    let _ = Update::<Review>::new().set(Review::fields().helpful_votes(), 3);
}
