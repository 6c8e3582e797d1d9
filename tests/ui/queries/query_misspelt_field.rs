// A misspelt field in a query: the message says which entry and suggests the field.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header")]
#[odm(query(eq = "merchant, stauts", sort = "-amount"))]
struct Order {
    #[serde(rename = "mi")]
    merchant: String,
    #[serde(rename = "st")]
    status: String,
    #[serde(rename = "am")]
    amount: i64,
}

fn main() {}
