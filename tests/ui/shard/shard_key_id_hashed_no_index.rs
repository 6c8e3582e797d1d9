// The implicit `_id` index is ascending: it serves a ranged `_id` shard key, but `_id:hashed` needs a hashed index.
use odm::bson::oid::ObjectId;
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header", shard_key = "id:hashed")]
struct Order {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "am")]
    amount: i64,
}

fn main() {}
