// `name-case`: a template's fixed text follows the naming rules, checked as the name of one of its instances.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "Shop_order_{name}")]
struct Order {
    #[serde(rename = "t")]
    total: i64,
}

fn main() {}
