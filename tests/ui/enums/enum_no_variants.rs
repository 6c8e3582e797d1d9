// An enum without stored variants has no value to store.
use odm::Embedded;
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
enum Never {}

fn main() {}
