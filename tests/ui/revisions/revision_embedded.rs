// `revision-field`: an embedded value is never written alone, so it has no revision of its own.
use odm::Embedded;
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
struct Line {
    #[serde(rename = "rv")]
    #[odm(revision)]
    revision: i64,
}

fn main() {}
