// `$pull` removes an unknown number of elements, so a counted array's counter could not follow: not offered.
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
    let _ = Update::<Review>::new().pull(Review::fields().voter_ids(), 7);
}
