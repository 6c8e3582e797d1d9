// `max_len` on a type the derive cannot see through (here an embedded struct) is checked against its real stored
// type by a generated const assertion.
use odm::{Embedded, Model};
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
struct Address {
    #[serde(rename = "c")]
    city: String,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "user_profile")]
struct Profile {
    #[serde(rename = "a")]
    #[odm(max_len = 100)]
    address: Address,
}

fn main() {}
