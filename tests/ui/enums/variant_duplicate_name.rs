// `enum-variants`: two variants stored under one name could not be told apart.
#![allow(unreachable_patterns)] // serde's own warning about the repeated name in its `Deserialize` match
use odm::Embedded;
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Status {
    Open,
    #[serde(rename = "open")]
    Reopened,
}

fn main() {}
