// `array-keyword`: `max_items` applies to arrays only.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "blog_post")]
struct Post {
    #[serde(rename = "t")]
    #[odm(max_items = 10)]
    title: String,
}

fn main() {}
