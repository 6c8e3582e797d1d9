// A newtype variant around a scalar: serde cannot write the discriminator into a value that is not a document.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "web_event")]
#[serde(tag = "t")]
enum Event {
    Click { x: i32 },
    Note(String),
}

fn main() {}
