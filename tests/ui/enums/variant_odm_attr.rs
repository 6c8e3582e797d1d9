// odm has no variant attributes.
use odm::Embedded;
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
enum Status {
    #[odm(nullable)]
    Open,
    Closed,
}

fn main() {}
