// A model is a struct with named fields.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_pair")]
struct Pair(i32, i32);

fn main() {}
