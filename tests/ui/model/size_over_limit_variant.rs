// `model-size`: a polymorphic model is refused at its largest variant.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "web_event")]
#[serde(tag = "t")]
enum Event {
    #[serde(rename = "c")]
    Click {
        #[serde(rename = "x")]
        x: i32,
    },
    #[serde(rename = "u")]
    Upload {
        #[serde(rename = "p")]
        #[odm(max_items = 50_000)]
        parts: Vec<[i64; 32]>,
    },
}

fn main() {}
