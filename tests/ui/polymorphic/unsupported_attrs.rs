// What a polymorphic model does not support: each attribute is refused where it is written.
use odm::{Model, Version};
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "web_event", shard_key = "x", version = 2, older(Event))]
#[serde(tag = "t")]
enum Event {
    Click {
        x: i32,
        #[odm(revision)]
        rv: i64,
        #[serde(rename = "_v")]
        v: Version<2>,
    },
}

fn main() {}
