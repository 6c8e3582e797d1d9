// `content` (adjacent tagging) needs `tag`.
use odm::Embedded;
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
#[serde(content = "c")]
enum Event {
    Opened { by: String },
}

fn main() {}
