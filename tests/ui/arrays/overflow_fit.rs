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
#[odm(collection = "shop_renamed")]
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

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_a")]
struct A {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "nt")]
    #[odm(max_items = 10, keep_last, overflow(model = "Renamed", owner = "product"))]
    notes: Vec<Note>,
}

// `stars` may be absent in the element, and is required here.
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_required")]
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

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_b")]
struct B {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "nt")]
    #[odm(max_items = 10, keep_last, overflow(model = "Required", owner = "product"))]
    notes: Vec<Note>,
}

// `text` is bounded to 50 here, to 200 in the element.
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_narrow")]
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

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_c")]
struct C {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "nt")]
    #[odm(max_items = 10, keep_last, overflow(model = "Narrow", owner = "product"))]
    notes: Vec<Note>,
}

// `author` is neither the element's, the owner, nor `_id`, and is required.
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_extra")]
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

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_d")]
struct D {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "nt")]
    #[odm(max_items = 10, keep_last, overflow(model = "Extra", owner = "product"))]
    notes: Vec<Note>,
}

// The owner's `_id` is a string here, an `ObjectId` in the owner.
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_owned")]
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

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_e")]
struct E {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "nt")]
    #[odm(max_items = 10, keep_last, overflow(model = "Owned", owner = "product"))]
    notes: Vec<Note>,
}


// `stars` is stored as a string here, an int in the element.
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_typed")]
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

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_f")]
struct F {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "nt")]
    #[odm(max_items = 10, keep_last, overflow(model = "Typed", owner = "product"))]
    notes: Vec<Note>,
}

// The overflow documents' `_id` is a string: odm could not make one per pushed element.
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_keyed")]
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

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_g")]
struct G {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "nt")]
    #[odm(max_items = 10, keep_last, overflow(model = "Keyed", owner = "product"))]
    notes: Vec<Note>,
}

// Strings are not documents: an overflow document needs the element's named fields.
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_h")]
struct H {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "tg")]
    #[odm(max_items = 10, keep_last, overflow(model = "Renamed", owner = "product"))]
    tags: Vec<String>,
}

fn main() {}
