// A polymorphic model needs serde's internal tag: the discriminator key every document holds.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "web_event")]
enum Event {
    Click { x: i32 },
    Ping,
}

fn main() {}
