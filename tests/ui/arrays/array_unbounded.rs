// `array-bound`: an embedded array declares its bound.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "blog_post")]
struct Post {
    #[serde(rename = "tg")]
    tags: Vec<String>,
}

fn main() {}
