// Only an `Option` field may be `$unset`: a required field must stay, or the validator refuses the document.
use odm::{Model, Update};
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_review")]
struct Review {
    #[serde(rename = "t")]
    title: String,
}

fn main() {
    let _ = Update::<Review>::new().unset(Review::fields().title());
}
