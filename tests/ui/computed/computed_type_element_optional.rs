// `computed-type`: the element field is always present.
use odm::{Embedded, Model};
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
struct Review {
    #[serde(rename = "n", skip_serializing_if = "Option::is_none")]
    note: Option<i32>,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_product")]
struct Product {
    #[serde(rename = "rv")]
    #[odm(max_items = 100)]
    reviews: Vec<Review>,
    #[serde(rename = "nt")]
    #[odm(sum = "reviews.note")]
    note_total: i64,
}

fn main() {}
