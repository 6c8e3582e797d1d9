// `size_budget = "warn"`: a model over 16 MiB in the worst case compiles, and its budget says so; a model within
// the limit compiles without it.
use odm::bson::oid::ObjectId;
use odm::size::Budget;
use odm::{Embedded, Model};
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
struct Block {
    #[serde(rename = "t")]
    #[odm(max_len = 100_000)]
    text: String,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_archive", size_budget = "warn")]
struct Archive {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "bl")]
    #[odm(max_items = 100)]
    blocks: Vec<Block>,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_shelf", size_budget = "refuse")]
struct Shelf {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "bl")]
    #[odm(max_items = 40)]
    blocks: Vec<Block>,
}

fn main() {
    assert!(Archive::size_budget().exceeds_document_limit());
    let Budget::AtMost(shelf) = Shelf::size_budget() else { panic!("bounded") };
    assert!(shelf < 16 * 1024 * 1024, "{shelf}");
}
