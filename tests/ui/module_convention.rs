// Rule 1: with `module = "order"`, the collection is `order_<table>`, `base_order_<table>` or `log_order_<table>`.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(module = "order", collection = "user_address")]
struct Address {
    #[serde(rename = "c")]
    city: String,
}

fn main() {}
