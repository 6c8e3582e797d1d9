// `shard-key-indexed`: a shard key must be indexed: declare an index whose keys start with the shard key's.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header", shard_key = "region, customer", index(keys = "customer, region"))]
struct Order {
    #[serde(rename = "rg")]
    region: String,
    #[serde(rename = "cu")]
    customer: String,
}

fn main() {}
