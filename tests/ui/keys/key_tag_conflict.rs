// `key-unique`: an internally tagged enum writes its tag into the variant's document, so no field uses its key.
use odm::Embedded;
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
#[serde(tag = "t")]
enum Payment {
    Card {
        #[serde(rename = "t")]
        token: String,
    },
    Cash,
}

fn main() {}
