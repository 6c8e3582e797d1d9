// `counter-integer`: the counter's type hides behind an alias; the generated const assertion sees the real type.
use odm::Model;
use serde::{Deserialize, Serialize};

type Count = f64;

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "blog_review")]
struct Review {
    #[serde(rename = "v")]
    #[odm(max_items = 100, counter = "helpful_votes")]
    voter_ids: Vec<i64>,
    #[serde(rename = "hv")]
    helpful_votes: Count,
}

fn main() {}
