// `revision-field`: a revision is always present, so it cannot be an `Option`.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_cart")]
struct Cart {
    #[serde(rename = "rv")]
    #[odm(revision, nullable)]
    revision: Option<i64>,
}

fn main() {}
