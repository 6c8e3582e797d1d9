// A typed update takes a value of the field's own type.
use odm::{Model, Update};
use serde::{Deserialize, Serialize};

/// Where the review was written.
#[derive(odm::Embedded, Serialize, Deserialize, PartialEq)]
struct Place {
    #[serde(rename = "c")]
    city: String,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_review")]
struct Review {
    #[serde(rename = "p")]
    place: Place,
}

fn main() {
    let _ = Update::<Review>::new().set(Review::fields().place(), 5);
}
