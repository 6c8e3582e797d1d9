// `array-bound`: `unbounded` and `max_items` contradict each other.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "blog_post")]
struct Post {
    #[serde(rename = "tg")]
    #[odm(max_items = 10, unbounded)]
    tags: Vec<String>,
}

fn main() {}
