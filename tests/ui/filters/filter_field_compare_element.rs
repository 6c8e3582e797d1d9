// A field-to-field condition reads one value per document: a path through an array element is refused.
use odm::{Embedded, Model};
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
struct Line {
    #[serde(rename = "q")]
    quantity: i32,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_order")]
struct Order {
    #[serde(rename = "oq")]
    ordered_qty: i32,
    #[serde(rename = "ln")]
    #[odm(max_items = 50)]
    lines: Vec<Line>,
}

fn main() {
    let f = Order::fields();
    let _ = f.lines().each().quantity().lt_field(f.ordered_qty());
    let _ = f.ordered_qty().gt_field(f.lines().at(0).quantity());
}
