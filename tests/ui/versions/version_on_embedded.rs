// `model-only`: versions belong to collection models.
use odm::Embedded;
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
#[odm(version = 2)]
struct Address {
    #[serde(rename = "c")]
    city: String,
}

fn main() {}
