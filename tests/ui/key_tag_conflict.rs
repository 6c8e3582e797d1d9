// Rule 1: an internally tagged enum writes its tag into the variant's document, so a field cannot use the tag key.
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
