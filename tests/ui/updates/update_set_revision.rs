// The revision is bumped by one by every typed write of the model; `set` on it is refused.
use odm::{Model, Update};
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_cart")]
struct Cart {
    #[serde(rename = "rv")]
    #[odm(revision)]
    revision: i64,
}

fn main() {
    let _ = Update::<Cart>::new().set(Cart::fields().revision(), 1);
}
