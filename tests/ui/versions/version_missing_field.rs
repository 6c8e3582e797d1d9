// `version-field`: a versioned model keeps its version in an `odm::Version<N>` field.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "crm_contact", version = 2)]
struct Contact {
    #[serde(rename = "n")]
    name: String,
}

fn main() {}
