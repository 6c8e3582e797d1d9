// `key-short`: stored keys are short (default limit 16 bytes); the message suggests `rename` and `max_key_len`.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "user_profile")]
struct Profile {
    preferred_language_code: String,
}

fn main() {}
