// The validator is generated for one concrete shape.
use odm::Embedded;
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
struct Page<T> {
    #[serde(rename = "i")]
    #[odm(max_items = 50)]
    items: Vec<T>,
}

fn main() {}
