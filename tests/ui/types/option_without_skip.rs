// `type-option-absent`: `Option` means absent; serde would write `None` as `null`.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "user_profile")]
struct Profile {
    #[serde(rename = "nn")]
    nickname: Option<String>,
}

fn main() {}
