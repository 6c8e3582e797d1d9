// `date-string`: a string field named like a date is flagged unless it opts out with `not_a_date`.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header")]
struct Order {
    #[serde(rename = "ca")]
    created_at: String,
}

fn main() {}
