// `enum-tagged`: an externally tagged enum with data variants stores a string or a document; it needs a tag.
use odm::Embedded;
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
enum Payment {
    Cash,
    Card { last4: String },
}

fn main() {}
