// `key-short`: the limit can be set per model with `max_key_len`.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "user_profile", max_key_len = 4)]
struct Profile {
    #[serde(rename = "nm")]
    name: String,
    #[serde(rename = "lang")]
    language: String,
    email: String,
}

fn main() {}
