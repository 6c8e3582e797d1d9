// Rule 4: chrono's own serde impl writes a string; dates are stored as BSON dates.
use chrono::{DateTime, Utc};
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header")]
struct Order {
    #[serde(rename = "ca")]
    created_at: DateTime<Utc>,
}

fn main() {}
