// `id-objectid`: `custom_id` marks the `_id` field only.
use odm::bson::oid::ObjectId;
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "user_account")]
struct Account {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "e")]
    #[odm(custom_id)]
    email: String,
}

fn main() {}
