// `id-objectid`: `_id` is an ObjectId unless another type is chosen explicitly.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "user_account")]
struct Account {
    #[serde(rename = "_id")]
    id: String,
    #[serde(rename = "e")]
    email: String,
}

fn main() {}
