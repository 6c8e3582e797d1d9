// odm refuses serde attributes it cannot mirror (here a typo that serde rejects too).
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "blog_post")]
struct Post {
    #[serde(renamed = "t")]
    title: String,
}

fn main() {}
