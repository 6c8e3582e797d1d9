// A tuple variant has no keys for its values.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "web_event")]
#[serde(tag = "t")]
enum Event {
    Click { x: i32 },
    Move(i32, i32),
}

fn main() {}
