// `flatten` hides keys from the derive.
use odm::{Embedded, Model};
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
struct Audit {
    #[serde(rename = "by")]
    author: String,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "blog_post")]
struct Post {
    #[serde(rename = "t")]
    title: String,
    #[serde(flatten)]
    audit: Audit,
}

fn main() {}
