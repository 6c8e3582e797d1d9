// `revision-field`: a skipped field is never stored, so there is nothing to compare.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_cart")]
struct Cart {
    #[serde(rename = "n")]
    note: String,
    #[serde(skip)]
    #[odm(revision)]
    revision: i64,
}

fn main() {}
