// Scalar operators (`$min`, `$max`, `$inc`, `$unset`, …) cannot write a counted array: its counter could not follow.
// Set the whole array, or use the array operators.
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
    let _ = Update::<Review>::new().max(Review::fields().voter_ids(), vec![1]);
}
