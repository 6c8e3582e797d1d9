// `version-step`: an older shape derives `odm::Embedded`, so that the validator accepts its documents while they
// remain.
use odm::{Model, Upgrade, Version};
use serde::{Deserialize, Serialize};

#[derive(Deserialize)]
struct ContactV1 {
    #[serde(rename = "n")]
    name: String,
}

impl Upgrade for ContactV1 {
    type Next = Contact;
    fn upgrade(self) -> Contact {
        Contact { v: Version, name: self.name }
    }
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
