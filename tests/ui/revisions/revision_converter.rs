// `revision-field`: a revision is stored as the integer itself, not through a converter.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_cart")]
struct Cart {
    #[serde(rename = "rv")]
    #[odm(revision, bson_type = "string")]
    revision: i64,
}

fn main() {}
