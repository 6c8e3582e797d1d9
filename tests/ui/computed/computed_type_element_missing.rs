// `computed-type`: the element field exists.
use odm::{Embedded, Model};
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
struct Review {
    #[serde(rename = "s")]
    stars: i32,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_product")]
struct Product {
    #[serde(rename = "rv")]
    #[odm(max_items = 100)]
    reviews: Vec<Review>,
    #[serde(rename = "st")]
    #[odm(sum = "reviews.starz")]
    star_total: i64,
}

fn main() {}
