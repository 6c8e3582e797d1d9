// A field-to-field condition compares fields of comparable types: a string with a number is refused.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_order")]
struct Order {
    #[serde(rename = "n")]
    name: String,
    #[serde(rename = "q")]
    quantity: i32,
    #[serde(rename = "sq")]
    shipped_qty: i64,
}

fn main() {
    let f = Order::fields();
    // Two numbers of different widths compare by value: accepted.
    let _ = f.shipped_qty().lt_field(f.quantity());
    let _ = f.name().eq_field(f.quantity());
}
