// Even on a counted set, how many elements a condition removes is unknown, so the counter could not follow; `pull`
// of one value is the exact form.
use odm::{Model, Update};
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_review")]
struct Review {
    #[serde(rename = "vi")]
    #[odm(max_items = 1000, counter = "helpful_votes", unique_items)]
    voter_ids: Vec<i64>,
    #[serde(rename = "hv")]
    helpful_votes: i32,
}

fn main() {
    let _ = Update::<Review>::new().pull_where(Review::fields().voter_ids(), |v| v.lt(100));
}
