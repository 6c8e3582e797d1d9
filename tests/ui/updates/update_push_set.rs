// A set takes no push: a value it already holds would be refused by the server's `uniqueItems`. Counted or not.
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
    #[serde(rename = "tg")]
    #[odm(max_items = 10, unique_items)]
    tags: Vec<String>,
}

fn main() {
    let f = Review::fields();
    let _ = Update::<Review>::new().push(f.voter_ids(), 7);
    let _ = Update::<Review>::new().push_each(f.tags(), ["a", "b"]);
    let _ = Update::<Review>::new().push_with(f.tags(), ["a"], |m| m.position(0));
}
