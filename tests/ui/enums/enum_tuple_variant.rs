// `enum-tuple-variant`: a tuple variant is stored as an array of mixed types.
use odm::Embedded;
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
enum Shape {
    Point(f64, f64),
}

fn main() {}
