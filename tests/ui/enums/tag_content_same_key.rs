// Adjacent tagging writes `{tag: .., content: ..}`: the two keys must differ.
use odm::Embedded;
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
#[serde(tag = "t", content = "t")]
enum Event {
    Renamed(String),
}

fn main() {}
