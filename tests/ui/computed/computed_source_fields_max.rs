// `computed-source`: a maximum of fields is not offered.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_bid")]
struct Bid {
    #[serde(rename = "a")]
    first: i64,
    #[serde(rename = "b")]
    second: i64,
    #[serde(rename = "h", skip_serializing_if = "Option::is_none")]
    #[odm(max = "first, second")]
    highest: Option<i64>,
}

fn main() {}
