// `poly-attr`: an index of a polymorphic model names fields every variant has, or the variant it indexes.
use odm::{bson::oid::ObjectId, Model};
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "web_event", max_indexes = 4)]
#[odm(index(keys = "at"), index(keys = "amount"), index(variant = "purchases", keys = "amount"))]
#[odm(index(variant = "purchase", keys = "x"))]
#[serde(tag = "t", rename_all = "snake_case")]
enum Event {
    Click {
        #[serde(rename = "_id")]
        id: ObjectId,
        #[serde(rename = "at")]
        at: odm::bson::DateTime,
        #[serde(rename = "x")]
        x: i32,
    },
    Purchase {
        #[serde(rename = "_id")]
        id: ObjectId,
        #[serde(rename = "at")]
        at: odm::bson::DateTime,
        #[serde(rename = "amt")]
        amount: i64,
    },
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "web_visit", index(variant = "click", keys = "at"))]
struct Visit {
    #[serde(rename = "at")]
    at: odm::bson::DateTime,
}

fn main() {}
