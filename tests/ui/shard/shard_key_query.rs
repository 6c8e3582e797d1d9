// `shard-key-query`: on a sharded model, a declared query holds the whole shard key by equality.
use odm::{bson::oid::ObjectId, Model};
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header", shard_key = "region, customer", max_indexes = 6)]
#[odm(index(keys = "region, customer"))]
#[odm(query(eq = "region, status", sort = "-created_at"))]
#[odm(query(eq = "customer, region, status"))]
#[odm(query(eq = "id"))]
#[odm(query(sort = "-created_at"))]
struct Order {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "rg")]
    region: String,
    #[serde(rename = "cu")]
    customer: ObjectId,
    #[serde(rename = "st")]
    status: String,
    #[serde(rename = "ca")]
    created_at: odm::bson::DateTime,
}

fn main() {}
