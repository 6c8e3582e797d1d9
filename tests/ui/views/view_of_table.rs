// `view-of`: what a view is of has a field table: a struct deriving `Model` or `Embedded`, not a polymorphic model
// (its documents differ by variant).
use odm::bson::oid::ObjectId;
use odm::{Model, View};
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "web_event")]
#[serde(tag = "t")]
pub enum Event {
    #[serde(rename = "c")]
    Click {
        #[serde(rename = "_id")]
        id: ObjectId,
        #[serde(rename = "x")]
        x: i32,
    },
}

#[derive(View)]
#[odm(of = "Event")]
pub struct Clicks {
    pub x: i32,
}

fn main() {}
