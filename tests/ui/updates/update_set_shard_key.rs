// A declared shard-key field is immutable once written: its path has no setter.
use odm::{Model, Update};
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_review", shard_key = "region", index(keys = "region"))]
struct Review {
    #[serde(rename = "rg")]
    region: String,
    #[serde(rename = "s")]
    stars: i32,
}

fn main() {
    let _ = Update::<Review>::new().set(Review::fields().region(), "eu".to_owned());
}
