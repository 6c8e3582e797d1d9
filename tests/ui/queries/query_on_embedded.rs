use odm::Embedded;
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
#[odm(query(eq = "name"))]
struct Line {
    name: String,
}

fn main() {}
