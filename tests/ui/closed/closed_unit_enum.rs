// `closed` (`additionalProperties: false`) applies to documents; a unit-only enum is a string.
use odm::Embedded;
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
#[odm(closed)]
enum Status {
    Open,
    Closed,
}

fn main() {}
