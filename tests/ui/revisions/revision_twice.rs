// `revision-field`: a document has one revision; a second field marked `revision` is refused.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_cart")]
struct Cart {
    #[serde(rename = "rv")]
    #[odm(revision)]
    revision: i64,
    #[serde(rename = "v2")]
    #[odm(revision)]
    version: i64,
}

fn main() {}
