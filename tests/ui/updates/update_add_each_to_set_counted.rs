// `$addToSet` with `$each` adds an unknown number of elements (only the new ones), so a counted array's counter could
// not follow: add them one by one with `add_to_set`, which odm guards.
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
    let _ = Update::<Review>::new().add_each_to_set(Review::fields().voter_ids(), [7, 8]);
}
