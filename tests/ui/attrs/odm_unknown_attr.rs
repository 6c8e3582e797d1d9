// Unknown odm attributes are errors, with the list of known ones.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "blog_post")]
struct Post {
    #[serde(rename = "tg")]
    #[odm(max_item = 10)]
    tags: Vec<String>,
}

fn main() {}
