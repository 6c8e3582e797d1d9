// `array-keyword`: `max_items` on a type alias is checked against the real type (a generated const assertion).
use odm::Model;
use serde::{Deserialize, Serialize};

type Title = String;

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "blog_post")]
struct Post {
    #[serde(rename = "t")]
    #[odm(max_items = 10)]
    title: Title,
}

fn main() {}
