// A variant field stored under the tag key: serde would write the key twice in one document.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "web_event")]
#[serde(tag = "t")]
enum Event {
    Click {
        x: i32,
        #[serde(rename = "t")]
        target: String,
    },
    Ping,
}

fn main() {}
