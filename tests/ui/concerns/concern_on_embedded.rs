use odm::Embedded;
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
#[odm(read_concern = "majority")]
struct Line {
    a: i64,
}

fn main() {}
