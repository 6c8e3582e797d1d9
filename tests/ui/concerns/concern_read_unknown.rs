use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_payment", read_concern = "strong")]
struct Payment {
    a: i64,
}

fn main() {}
