// `type-option-absent`: only an `Option` can store `null`.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "user_profile")]
struct Profile {
    #[serde(rename = "nn")]
    #[odm(nullable)]
    nickname: String,
}

fn main() {}
