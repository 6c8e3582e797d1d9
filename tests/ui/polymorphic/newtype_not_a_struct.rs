// A newtype variant must wrap a struct deriving `Embedded`: serde writes the tag into its document.
use odm::{Embedded, Model};
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
enum Level {
    Low,
    High,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "web_event")]
#[serde(tag = "t")]
enum Event {
    Click { x: i32 },
    Alarm(Level),
}

fn main() {}
