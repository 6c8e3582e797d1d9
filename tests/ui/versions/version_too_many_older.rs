// `version-field`: version 2 has one older version, not two.
use odm::{Model, Upgrade, Version};
use serde::{Deserialize, Serialize};

#[derive(Deserialize)]
struct A {}
#[derive(Deserialize)]
struct B {}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "crm_contact", version = 2, older(A, B))]
struct Contact {
    #[serde(rename = "_v")]
    v: Version<2>,
}

impl Upgrade for A {
    type Next = B;
    fn upgrade(self) -> B {
        B {}
    }
}
impl Upgrade for B {
    type Next = Contact;
    fn upgrade(self) -> Contact {
        Contact { v: Version }
    }
}

fn main() {}
