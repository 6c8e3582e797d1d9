// `shard-scatter`: a scatter policy is `refuse`, `warn` or `allow`, and only on a model with a shard key.
use odm::{bson::oid::ObjectId, Model};
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header", shard_key = "region", scatter = "ignore")]
#[odm(index(keys = "region"))]
struct Order {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "rg")]
    region: String,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_line", scatter = "warn")]
struct Line {
    #[serde(rename = "_id")]
    id: ObjectId,
}

fn main() {}
