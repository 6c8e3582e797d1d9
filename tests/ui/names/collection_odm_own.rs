// `name-system`: odm's own collections (`odm_index`, `odm_sync_lock`) are not a model's, even kept as an
// existing name.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "odm_index")]
struct Record {
    #[serde(rename = "n")]
    number: i64,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "odm_sync_lock", existing_name)]
struct Lease {
    #[serde(rename = "n")]
    number: i64,
}

fn main() {}
