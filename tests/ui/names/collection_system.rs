// `name-system`: `system` collections belong to the server.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "system_users")]
struct User {
    #[serde(rename = "n")]
    name: String,
}

fn main() {}
