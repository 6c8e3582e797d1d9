// `size_budget` is a model's setting: an embedded type has no document of its own.
use odm::Embedded;
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
#[odm(size_budget = "warn")]
struct Line {
    #[serde(rename = "q")]
    quantity: i32,
}

fn main() {}
