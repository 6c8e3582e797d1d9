// `model-size`: `size_budget` is `refuse` or `warn`.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_note", size_budget = "ignore")]
struct Note {
    #[serde(rename = "t")]
    #[odm(max_len = 100)]
    text: String,
}

fn main() {}
