use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header")]
#[odm(index(keys = "a"))]
#[odm(index(keys = "b"))]
#[odm(index(keys = "c"))]
#[odm(query(eq = "b", sort = "-a"))]
struct Order {
    a: i32,
    b: i32,
    c: i32,
}

fn main() {}
