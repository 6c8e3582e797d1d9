// `revision-field`: `_id` never changes, so it cannot count the document's writes.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_cart")]
struct Cart {
    #[serde(rename = "_id")]
    #[odm(custom_id, revision)]
    id: i64,
}

fn main() {}
