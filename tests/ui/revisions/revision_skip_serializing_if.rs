// `revision-field`: a revision left out of some documents could not be compared.
use odm::Model;
use serde::{Deserialize, Serialize};

fn is_zero(n: &i64) -> bool {
    *n == 0
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_cart")]
struct Cart {
    #[serde(rename = "rv", skip_serializing_if = "is_zero")]
    #[odm(revision)]
    revision: i64,
}

fn main() {}
