// odm refuses serde attributes it does not know, rather than guess what they do to the stored document. (A typo like
// this one is reported by serde too; odm's fallback impls then add no errors about the missing serde impls.)
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "blog_post")]
struct Post {
    #[serde(renamed = "t")]
    title: String,
}

fn main() {}
