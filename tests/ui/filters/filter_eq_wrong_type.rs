// A typed filter compares with a value of the field's own type.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_review")]
struct Review {
    #[serde(rename = "t")]
    title: String,
}

fn main() {
    let _ = Review::fields().title().eq(5);
}
