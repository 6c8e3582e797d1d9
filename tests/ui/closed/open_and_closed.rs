// `open` keeps a type open inside a closed document; `closed` closes it: both on one type contradict each other.
// `open` on an enum stored as a string has nothing to open.
use odm::Embedded;
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
#[odm(closed, open)]
struct Note {
    #[serde(rename = "t")]
    text: String,
}

#[derive(Embedded, Serialize, Deserialize)]
#[odm(open)]
enum Status {
    Open,
    Shut,
}

fn main() {}
