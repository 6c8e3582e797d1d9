// `array-bound`: an array behind a type alias still declares its bound (checked by a generated const assertion).
use odm::Model;
use serde::{Deserialize, Serialize};

type Tags = Vec<String>;

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "blog_post")]
struct Post {
    #[serde(rename = "tg")]
    tags: Tags,
}

fn main() {}
