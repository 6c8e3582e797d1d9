// `model-size`: a model whose worst-case document is over 16 MiB is refused at its largest field.
use odm::bson::oid::ObjectId;
use odm::{Embedded, Model};
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
struct Block {
    #[serde(rename = "t")]
    #[odm(max_len = 100_000)]
    text: String,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_archive")]
struct Archive {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "n")]
    #[odm(max_len = 40)]
    name: String,
    #[serde(rename = "bl")]
    #[odm(max_items = 100)]
    blocks: Vec<Block>,
}

fn main() {}
