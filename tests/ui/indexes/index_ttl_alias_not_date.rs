// A TTL index is on a date field: a type alias is checked by a const assertion.
use odm::Model;
use serde::{Deserialize, Serialize};

type Seconds = i64;

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header")]
#[odm(index(keys = "expires", ttl = 3600))]
struct Order {
    #[serde(rename = "ex")]
    expires: Seconds,
}

fn main() {}
