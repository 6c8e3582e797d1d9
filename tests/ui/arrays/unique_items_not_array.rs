// `unique_items` declares an array a set; on a string it would mean nothing.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_review")]
struct Review {
    #[serde(rename = "ti")]
    #[odm(unique_items)]
    title: String,
}

fn main() {}
