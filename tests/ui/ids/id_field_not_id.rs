// `id-field`: a model's field named or stored as `id` is its `_id`; without the rename every document would hold a
// second id beside the one the server gives it.
use odm::bson::oid::ObjectId;
use odm::{Embedded, Model};
use serde::{Deserialize, Serialize};

/// The habit of other ORMs: `id` without the rename.
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "user_account")]
struct Account {
    id: ObjectId,
    #[serde(rename = "n")]
    name: String,
}

/// An optional id, left for the server to fill in: still stored as `id`.
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "user_session")]
struct Session {
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<ObjectId>,
}

/// Renamed, but not to `_id`.
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "user_group")]
struct Group {
    #[serde(rename = "i")]
    id: ObjectId,
}

/// Another field stored under the key `id`.
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "user_role")]
struct Role {
    #[serde(rename = "id")]
    ident: ObjectId,
}

/// Another type: the fix is `custom_id`.
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "user_badge")]
struct Badge {
    id: String,
}

/// The model has an `_id` already: the fix is a name that says whose id this is.
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "user_device")]
struct Device {
    #[serde(rename = "_id")]
    key: ObjectId,
    id: ObjectId,
}

/// Each variant of a polymorphic model is a document of the collection.
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "user_event")]
#[serde(tag = "t")]
enum Event {
    Login { id: ObjectId },
}

/// `not_id` where nothing is named `id`, and on an embedded type, where `id` is a reference.
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "user_token")]
struct Token {
    #[serde(rename = "_id")]
    #[odm(not_id)]
    id: ObjectId,
    #[serde(rename = "o")]
    #[odm(not_id)]
    owner: ObjectId,
}

#[derive(Embedded, Serialize, Deserialize)]
struct AccountRef {
    #[serde(rename = "i")]
    #[odm(not_id)]
    id: ObjectId,
}

fn main() {}
