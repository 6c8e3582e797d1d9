// A shard key belongs to a collection: `shard_key` goes on the `#[derive(Model)]`, not on an embedded type.
use odm::Embedded;
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
#[odm(shard_key = "country")]
pub struct Address {
    #[serde(rename = "co")]
    country: String,
}

fn main() {}
