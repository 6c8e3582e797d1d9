// `model-size`: over 16 MiB with no field taking most of it: the model itself is named.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_page")]
struct Page {
    #[serde(rename = "a")]
    #[odm(max_len = 1_500_000)]
    first: String,
    #[serde(rename = "b")]
    #[odm(max_len = 1_500_000)]
    second: String,
    #[serde(rename = "c")]
    #[odm(max_len = 1_500_000)]
    third: String,
}

fn main() {}
