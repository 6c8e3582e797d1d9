// `name-template`: a template names its instances by one period or one name.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_order_{name}_{yyyy}")]
struct Order {
    #[serde(rename = "t")]
    total: i64,
}

fn main() {}
