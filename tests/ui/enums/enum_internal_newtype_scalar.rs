// `enum-tagged`: an internally tagged newtype variant must wrap a document, since serde writes the tag into it
// (a string would fail at runtime).
use odm::Embedded;
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
#[serde(tag = "t")]
enum Event {
    Opened,
    Renamed(String),
}

fn main() {}
