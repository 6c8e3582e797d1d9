// `type-option-absent`: `Option<Option<T>>` cannot tell absent from null once stored.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "user_profile")]
struct Profile {
    #[serde(rename = "nn", skip_serializing_if = "Option::is_none")]
    nickname: Option<Option<String>>,
}

fn main() {}
