// `key-unique`, `key-short`: `#[serde(tag)]` on a struct writes the struct's name under the tag key, so a field
// cannot use that key, and the tag key follows the naming rules like any other key.
use odm::Embedded;
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
#[serde(tag = "t")]
struct Card {
    #[serde(rename = "t")]
    token: String,
}

#[derive(Embedded, Serialize, Deserialize)]
#[serde(tag = "kind_of_payment_made")]
struct Cash {
    #[serde(rename = "a")]
    amount: i64,
}

fn main() {}
