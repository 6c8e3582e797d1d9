// `collection` belongs on a model, not on an embedded type.
use odm::Embedded;
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
#[odm(collection = "order_line")]
struct Line {
    #[serde(rename = "q")]
    quantity: i32,
}

fn main() {}
