// `version-field`: checked through a type alias too (by a generated const assertion).
use odm::{Model, Version};
use serde::{Deserialize, Serialize};

type Current = Version<1>;

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "crm_contact", version = 2)]
struct Contact {
    #[serde(rename = "_v")]
    v: odm::Version<{ 1 + 0 }>,
    #[serde(rename = "n")]
    name: String,
    #[serde(rename = "x")]
    other: u8,
}

fn main() {
    let _: Option<Current> = None;
}
