// Indexes belong on the collection model, not on an embedded type.
use odm::Embedded;
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
#[odm(index(keys = "name"))]
pub struct Item {
    #[serde(rename = "n")]
    name: String,
}

fn main() {}
