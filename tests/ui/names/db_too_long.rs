// `name-length`: database names are under 64 bytes.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(db = "a_database_name_that_keeps_going_and_going_well_past_the_server_limit", collection = "order_header")]
struct Order {
    #[serde(rename = "n")]
    number: i64,
}

fn main() {}
