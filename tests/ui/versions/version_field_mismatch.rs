// `version-field`: the field's version is the model's.
use odm::{Model, Version};
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "crm_contact", version = 3)]
struct Contact {
    #[serde(rename = "_v")]
    v: Version<2>,
    #[serde(rename = "n")]
    name: String,
}

fn main() {}
