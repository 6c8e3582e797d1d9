// `$inc` on an array counter would put it out of step with its array: push to the array instead.
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
    let _ = Update::<Review>::new().inc(Review::fields().helpful_votes(), 1);
}
