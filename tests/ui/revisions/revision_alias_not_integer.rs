// `revision-field`: the revision's type hides behind an alias; the generated const assertion sees the real type.
use odm::Model;
use serde::{Deserialize, Serialize};

type Rev = f64;

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_cart")]
struct Cart {
    #[serde(rename = "rv")]
    #[odm(revision)]
    revision: Rev,
}

fn main() {}
