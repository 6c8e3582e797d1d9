// `key-unique`: keys are unique after `rename_all`, mirrored exactly as serde applies it (`page_2` and `page2`
// both become `page2` in camelCase).
#![allow(unreachable_patterns)] // serde's own warning about the repeated key in its `Deserialize` match
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_item")]
#[serde(rename_all = "camelCase")]
struct Item {
    page_2: i32,
    page2: i32,
}

fn main() {}
