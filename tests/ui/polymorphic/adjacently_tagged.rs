// Adjacent tagging nests each variant's fields under `content`: they would not be the document's own keys.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "web_event")]
#[serde(tag = "t", content = "c")]
enum Event {
    Click { x: i32 },
    Ping,
}

fn main() {}
