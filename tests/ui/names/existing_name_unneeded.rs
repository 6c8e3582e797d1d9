// `name-case`: `existing_name` on a name that follows the rules excuses nothing, so it is refused at the attribute.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header", existing_name)]
struct Order {
    #[serde(rename = "n")]
    number: i64,
}

fn main() {}
