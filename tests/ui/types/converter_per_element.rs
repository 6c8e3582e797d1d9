// `type-converter`: a `serde_as` converter applied to each element (`Vec<X>`) stores an array, not an `X`; odm
// refuses to guess instead of generating a validator that rejects every document.
use odm::Model;
use serde::{Deserialize, Serialize};

#[serde_with::serde_as]
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header")]
struct Order {
    #[serde(rename = "ts")]
    #[odm(max_items = 10)]
    #[serde_as(as = "Vec<odm::bson::serde_helpers::datetime::FromChrono04DateTime>")]
    timestamps: Vec<chrono::DateTime<chrono::Utc>>,
}

fn main() {}
