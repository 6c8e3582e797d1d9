// `date-chrono`: a converter that writes a date as a string is refused.
use odm::bson::DateTime;
use odm::Model;
use serde::{Deserialize, Serialize};

#[serde_with::serde_as]
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header")]
struct Order {
    #[serde(rename = "ca")]
    #[serde_as(as = "odm::bson::serde_helpers::datetime::AsRfc3339String")]
    created_at: DateTime,
}

fn main() {}
