// `computed-source`: a sum of fields adds plain integer fields.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_invoice")]
struct Invoice {
    #[serde(rename = "n")]
    net: i64,
    #[serde(rename = "tx")]
    tax: f64,
    #[serde(rename = "t")]
    #[odm(sum = "net, tax")]
    total: i64,
}

fn main() {}
