// odm supports top-level shard key fields only.
use odm::{Embedded, Model};
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
struct Address {
    #[serde(rename = "co")]
    country: String,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header", shard_key = "address.country", index(keys = "address.country"))]
struct Order {
    #[serde(rename = "ad")]
    address: Address,
}

fn main() {}
