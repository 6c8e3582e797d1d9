// `counter-field`: a counter names a field beside the array.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "blog_review")]
struct Review {
    #[serde(rename = "v")]
    #[odm(max_items = 100, counter = "vote_count")]
    voter_ids: Vec<i64>,
    #[serde(rename = "hv")]
    helpful_votes: i32,
}

fn main() {}
