// `key-dollar`: the key rules apply to the enum's tag key as well.
use odm::Embedded;
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
#[serde(tag = "$type")]
enum Shape {
    Circle { r: f64 },
}

fn main() {}
