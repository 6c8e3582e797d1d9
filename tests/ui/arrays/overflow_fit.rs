// The overflow model holds documents built from an element, the owner's `_id` and a new `ObjectId`: each misfit is
// found by the compiler over both field tables.
use odm::bson::oid::ObjectId;
use odm::{Embedded, Model};
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
struct Note {
    #[serde(rename = "t")]
    #[odm(max_len = 200)]
    text: String,
    #[serde(rename = "s", skip_serializing_if = "Option::is_none")]
    stars: Option<i32>,
}

// `t` is stored as `tx`.
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_renamed", index(keys = "product"))]
struct Renamed {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "pr")]
    product: ObjectId,
    #[serde(rename = "tx")]
    text: String,
    #[serde(rename = "s", skip_serializing_if = "Option::is_none")]
    stars: Option<i32>,
}

// `stars` may be absent in the element, and is required here.
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_required", index(keys = "product"))]
struct Required {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "pr")]
    product: ObjectId,
    #[serde(rename = "t")]
    text: String,
    #[serde(rename = "s")]
    stars: i32,
}

// `text` is bounded to 50 here, to 200 in the element.
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_narrow", index(keys = "product"))]
struct Narrow {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "pr")]
    product: ObjectId,
    #[serde(rename = "t")]
    #[odm(max_len = 50)]
    text: String,
    #[serde(rename = "s", skip_serializing_if = "Option::is_none")]
    stars: Option<i32>,
}

// `author` is neither the element's, the owner, nor `_id`, and is required.
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_extra", index(keys = "product"))]
struct Extra {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "pr")]
    product: ObjectId,
    #[serde(rename = "t")]
    text: String,
    #[serde(rename = "s", skip_serializing_if = "Option::is_none")]
    stars: Option<i32>,
    #[serde(rename = "au")]
    author: String,
}

// The owner's `_id` is a string here, an `ObjectId` in the owner.
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_owned", index(keys = "product"))]
struct Owned {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "pr")]
    product: String,
    #[serde(rename = "t")]
    text: String,
    #[serde(rename = "s", skip_serializing_if = "Option::is_none")]
    stars: Option<i32>,
}

// `stars` is stored as a string here, an int in the element.
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_typed", index(keys = "product"))]
struct Typed {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "pr")]
    product: ObjectId,
    #[serde(rename = "t")]
    text: String,
    #[serde(rename = "s", skip_serializing_if = "Option::is_none")]
    stars: Option<String>,
}

// The overflow documents' `_id` is a string: odm could not make one per pushed element.
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_keyed", index(keys = "product"))]
struct Keyed {
    #[serde(rename = "_id")]
    #[odm(custom_id)]
    id: String,
    #[serde(rename = "pr")]
    product: ObjectId,
    #[serde(rename = "t")]
    text: String,
    #[serde(rename = "s", skip_serializing_if = "Option::is_none")]
    stars: Option<i32>,
}

// Strings are not documents: an overflow document needs the element's named fields.
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_tagged")]
struct Tagged {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "tg")]
    #[odm(max_items = 10, keep_last, overflow(model = "Renamed", owner = "product"))]
    tags: Vec<String>,
}

// Reading one product's notes filters on `product`, and no index of `Unindexed` starts with it.
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_unindexed", index(keys = "text, product"))]
struct Unindexed {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "pr")]
    product: ObjectId,
    #[serde(rename = "t")]
    text: String,
    #[serde(rename = "s", skip_serializing_if = "Option::is_none")]
    stars: Option<i32>,
}

// One product, whose arrays each move their elements to a model that does not fit.
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_product")]
struct Product {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "na")]
    #[odm(max_items = 10, keep_last, overflow(model = "Renamed", owner = "product"))]
    notes_a: Vec<Note>,
    #[serde(rename = "nb")]
    #[odm(max_items = 10, keep_last, overflow(model = "Required", owner = "product"))]
    notes_b: Vec<Note>,
    #[serde(rename = "nc")]
    #[odm(max_items = 10, keep_last, overflow(model = "Narrow", owner = "product"))]
    notes_c: Vec<Note>,
    #[serde(rename = "nd")]
    #[odm(max_items = 10, keep_last, overflow(model = "Extra", owner = "product"))]
    notes_d: Vec<Note>,
    #[serde(rename = "ne")]
    #[odm(max_items = 10, keep_last, overflow(model = "Owned", owner = "product"))]
    notes_e: Vec<Note>,
    #[serde(rename = "nf")]
    #[odm(max_items = 10, keep_last, overflow(model = "Typed", owner = "product"))]
    notes_f: Vec<Note>,
    #[serde(rename = "ng")]
    #[odm(max_items = 10, keep_last, overflow(model = "Keyed", owner = "product"))]
    notes_g: Vec<Note>,
    #[serde(rename = "ni")]
    #[odm(max_items = 10, keep_last, overflow(model = "Unindexed", owner = "product"))]
    notes_i: Vec<Note>,
}

fn main() {}
