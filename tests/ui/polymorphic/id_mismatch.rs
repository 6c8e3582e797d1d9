// One collection has one `_id`: declared by every variant or by none, with one type.
use odm::{bson::oid::ObjectId, Model};
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "web_event")]
#[serde(tag = "t")]
enum Event {
    Click {
        #[serde(rename = "_id")]
        id: ObjectId,
        x: i32,
    },
    Scroll {
        y: i32,
    },
    Purchase {
        #[serde(rename = "_id")]
        #[odm(custom_id)]
        id: String,
        a: i64,
    },
}

fn main() {}
