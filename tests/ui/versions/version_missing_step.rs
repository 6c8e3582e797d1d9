// `version-step`: every older shape upgrades to the next one.
use odm::{Embedded, Model, Version};
use serde::{Deserialize, Serialize};

#[derive(Embedded, Deserialize)]
struct ContactV1 {
    #[serde(rename = "n")]
    name: String,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "crm_contact", version = 2, older(ContactV1))]
struct Contact {
    #[serde(rename = "_v")]
    v: Version<2>,
    #[serde(rename = "n")]
    name: String,
}

fn main() {}
