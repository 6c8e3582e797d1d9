// A field's type needs a `BsonSchema` impl: a struct without `#[derive(Embedded)]` has none.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
struct Address {
    city: String,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "user_profile")]
struct Profile {
    #[serde(rename = "a")]
    address: Address,
}

fn main() {}
