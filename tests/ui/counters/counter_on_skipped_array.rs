// `counter-field`: a skipped field is never stored, so there is no array size to keep in step.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "blog_review")]
struct Review {
    #[serde(skip)]
    #[odm(max_items = 100, counter = "helpful_votes")]
    voter_ids: Vec<i64>,
    #[serde(rename = "hv")]
    helpful_votes: i32,
}

fn main() {}
