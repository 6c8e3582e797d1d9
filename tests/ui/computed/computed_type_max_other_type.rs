// `computed-type`: a maximum has the values' type.
use odm::{Embedded, Model};
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
struct Review {
    #[serde(rename = "by")]
    #[odm(max_len = 40)]
    author: String,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_product")]
struct Product {
    #[serde(rename = "rv")]
    #[odm(max_items = 100)]
    reviews: Vec<Review>,
    #[serde(rename = "la", skip_serializing_if = "Option::is_none")]
    #[odm(max = "reviews.author")]
    last_author: Option<i32>,
}

fn main() {}
