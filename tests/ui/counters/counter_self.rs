// `counter-field`: an array cannot count itself.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "blog_review")]
struct Review {
    #[serde(rename = "v")]
    #[odm(max_items = 100, counter = "voter_ids")]
    voter_ids: Vec<i64>,
}

fn main() {}
