// Two variants renamed to one tag value could not be told apart by the discriminator.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "web_event")]
#[serde(tag = "t")]
enum Event {
    #[serde(rename = "c")]
    Click { x: i32 },
    #[serde(rename = "c")]
    Scroll { y: i32 },
}

fn main() {}
