// `revision-field`: a `u8` revision would overflow after 255 writes.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_cart")]
struct Cart {
    #[serde(rename = "rv")]
    #[odm(revision)]
    revision: u8,
}

fn main() {}
