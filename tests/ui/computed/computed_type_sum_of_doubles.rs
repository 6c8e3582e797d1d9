// `computed-type`: a sum of doubles cannot be kept exactly.
use odm::{Embedded, Model};
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
struct Review {
    #[serde(rename = "sc")]
    score: f64,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_product")]
struct Product {
    #[serde(rename = "rv")]
    #[odm(max_items = 100)]
    reviews: Vec<Review>,
    #[serde(rename = "st")]
    #[odm(sum = "reviews.score")]
    score_total: i64,
}

fn main() {}
