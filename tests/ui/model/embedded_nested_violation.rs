// Rules apply at every nesting level: the same rules inside an `Embedded` struct.
use odm::{Embedded, Model};
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
struct Line {
    #[serde(rename = "sku.code")]
    sku: String,
    #[serde(rename = "tg")]
    tags: Vec<String>,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header")]
struct Order {
    #[serde(rename = "l")]
    #[odm(max_items = 30)]
    lines: Vec<Line>,
}

fn main() {}
