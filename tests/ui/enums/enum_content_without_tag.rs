// `content` (adjacent tagging) needs `tag`. serde's derive reports this itself, so odm adds nothing: no second error,
// and no follow-on "needs a tag" for the data variants.
use odm::Embedded;
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
#[serde(content = "c")]
enum Event {
    Opened { by: String },
}

fn main() {}
