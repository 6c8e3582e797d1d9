// An odm attribute is set once.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "blog_post")]
struct Post {
    #[serde(rename = "tg")]
    #[odm(max_items = 10)]
    #[odm(max_items = 20)]
    tags: Vec<String>,
}

fn main() {}
