// Every field rule applies inside variants, at the variant field's span; all errors in one pass.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "web_event")]
#[serde(tag = "t")]
enum Event {
    Click {
        #[serde(rename = "position_on_the_page_x")]
        x: i32,
        tags: Vec<String>,
        note: Option<String>,
    },
    Purchase {
        #[odm(max_items = 5, counter = "count")]
        skus: Vec<String>,
        #[odm(max_items = 5, counter = "tags")]
        lines: Vec<String>,
        #[odm(max_items = 5)]
        tags: Vec<String>,
        amount: u64,
    },
}

fn main() {}
