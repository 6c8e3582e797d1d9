// `counter-field`: one counter tracks one array.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "blog_review")]
struct Review {
    #[serde(rename = "up")]
    #[odm(max_items = 100, counter = "votes")]
    up_voters: Vec<i64>,
    #[serde(rename = "dn")]
    #[odm(max_items = 100, counter = "votes")]
    down_voters: Vec<i64>,
    #[serde(rename = "vc")]
    votes: i32,
}

fn main() {}
