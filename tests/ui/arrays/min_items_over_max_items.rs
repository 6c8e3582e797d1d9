// `array-bound`: `min_items` cannot exceed `max_items`.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "blog_post")]
struct Post {
    #[serde(rename = "tg")]
    #[odm(min_items = 5, max_items = 3)]
    tags: Vec<String>,
}

fn main() {}
