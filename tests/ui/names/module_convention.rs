// `name-module`: in `module = "order"`, collections are `order_<table>`, `base_order_<table>`, `log_order_<table>`.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(module = "order", collection = "user_address")]
struct Address {
    #[serde(rename = "c")]
    city: String,
}

fn main() {}
