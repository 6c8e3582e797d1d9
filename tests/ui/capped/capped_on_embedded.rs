// `capped` belongs on the collection model.
use odm::Embedded;
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
#[odm(capped(size = 4096))]
pub struct Line {
    #[serde(rename = "n")]
    name: String,
}

fn main() {}
