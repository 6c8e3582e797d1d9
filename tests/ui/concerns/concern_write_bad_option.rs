use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_payment", write_concern(w = "majority", fsync = true))]
struct Payment {
    a: i64,
}

fn main() {}
