// `counter-integer`: a counter is always present, so the server can keep it equal to the array's size.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "blog_review")]
struct Review {
    #[serde(rename = "v")]
    #[odm(max_items = 100, counter = "helpful_votes")]
    voter_ids: Vec<i64>,
    #[serde(rename = "hv", skip_serializing_if = "Option::is_none")]
    helpful_votes: Option<i32>,
}

fn main() {}
