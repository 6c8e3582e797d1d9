// `copy-source`: `copies` names the copied model and a stored field holding its `_id`, on an embedded struct.
use odm::bson::oid::ObjectId;
use odm::{Embedded, Model};
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "hr_employee")]
struct Employee {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "n")]
    name: String,
}

#[derive(Embedded, Serialize, Deserialize)]
#[odm(copies(model = "Employee", by = "ident"))]
struct ByMissing {
    #[serde(rename = "i")]
    id: ObjectId,
    #[serde(rename = "n")]
    name: String,
}

#[derive(Embedded, Serialize, Deserialize)]
#[odm(copies(by = "id"))]
struct ModelMissing {
    #[serde(rename = "i")]
    id: ObjectId,
    #[serde(rename = "n")]
    name: String,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "hr_badge", copies(model = "Employee", by = "id"))]
struct Badge {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "n")]
    name: String,
}

#[derive(Embedded, Serialize, Deserialize)]
#[odm(copies(model = "Employee", by = "id"))]
struct WrongId {
    #[serde(rename = "i")]
    id: String,
    #[serde(rename = "n")]
    name: String,
}

fn main() {}
