// A nested path needs an embedded struct: checked on the type (here an enum) at compile time.
use odm::{Embedded, Model};
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
#[serde(tag = "t")]
pub enum Payment {
    #[serde(rename = "c")]
    Card,
    #[serde(rename = "w")]
    Wire,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header")]
#[odm(index(keys = "payment.number"))]
struct Order {
    #[serde(rename = "p")]
    payment: Payment,
}

fn main() {}
