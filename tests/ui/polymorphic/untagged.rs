// An untagged enum writes no discriminator: its variants could not be told apart.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "web_event")]
#[serde(untagged)]
enum Event {
    Click { x: i32 },
    Scroll { y: i32 },
}

fn main() {}
