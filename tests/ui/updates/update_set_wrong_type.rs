// A typed update takes a value of the field's own type.
use odm::{Model, Update};
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_review")]
struct Review {
    #[serde(rename = "t")]
    title: String,
}

fn main() {
    let _ = Update::<Review>::new().set(Review::fields().title(), 5);
}
