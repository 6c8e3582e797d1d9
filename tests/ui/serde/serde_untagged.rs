// `enum-tagged`: an untagged enum stores several shapes in one field.
use odm::Embedded;
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
#[serde(untagged)]
enum Amount {
    Cents(i64),
    Text(String),
}

fn main() {}
