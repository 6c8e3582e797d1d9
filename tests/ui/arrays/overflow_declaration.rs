// `overflow` goes on a top-level array of a model, with `max_items` and `keep_last`, naming the model and the owner field.
use odm::bson::oid::ObjectId;
use odm::{Embedded, Model};
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
struct Note {
    #[serde(rename = "t")]
    text: String,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_note")]
struct Kept {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "pr")]
    product: ObjectId,
    #[serde(rename = "t")]
    text: String,
}

// No `keep_last`: pushes past the bound would be refused, so nothing would ever overflow.
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_product")]
struct Unsliced {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "nt")]
    #[odm(max_items = 10, overflow(model = "Kept", owner = "product"))]
    notes: Vec<Note>,
}

// Not an array.
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_item")]
struct Single {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "nt")]
    #[odm(overflow(model = "Kept", owner = "product"))]
    note: Note,
}

// In an embedded struct: its elements would have no owner `_id`.
#[derive(Embedded, Serialize, Deserialize)]
struct Shelf {
    #[serde(rename = "nt")]
    #[odm(max_items = 10, keep_last, overflow(model = "Kept", owner = "product"))]
    notes: Vec<Note>,
}

// The owner field is not named.
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_shelf")]
struct Unowned {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "nt")]
    #[odm(max_items = 10, keep_last, overflow(model = "Kept"))]
    notes: Vec<Note>,
}

// The overflow model is not named.
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_rack")]
struct Unnamed {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "nt")]
    #[odm(max_items = 10, keep_last, overflow(owner = "product"))]
    notes: Vec<Note>,
}

fn main() {}
