// All errors of one derive are reported together, in one build.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "Orders")]
struct Order {
    #[serde(rename = "_id")]
    id: String,
    #[serde(rename = "$n")]
    number: i64,
    #[serde(rename = "nn")]
    nickname: Option<String>,
    #[serde(rename = "st")]
    stock: u64,
    #[serde(rename = "tg")]
    tags: Vec<String>,
    created_at: String,
}

fn main() {}
