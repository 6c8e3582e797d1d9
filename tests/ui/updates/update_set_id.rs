// `_id` never changes once written (the server answers 66 `ImmutableField`): its path has no setter.
use odm::bson::oid::ObjectId;
use odm::{Model, Update};
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_review")]
struct Review {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "s")]
    stars: i32,
}

fn main() {
    let _ = Update::<Review>::new().set(Review::fields().id(), ObjectId::new());
}
