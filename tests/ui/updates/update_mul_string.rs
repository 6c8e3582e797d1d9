// `$mul` applies to numeric fields only.
use odm::{Model, Update};
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_review")]
struct Review {
    #[serde(rename = "t")]
    title: String,
}

fn main() {
    let _ = Update::<Review>::new().mul(Review::fields().title(), 2);
}
