// `version-field`: `older(…)` belongs to a model that declares its version.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Deserialize)]
struct ContactV1 {}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "crm_contact", older(ContactV1))]
struct Contact {
    #[serde(rename = "n")]
    name: String,
}

fn main() {}
