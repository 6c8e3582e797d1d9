// A TTL index may expire on an array of dates, but not on an array of anything else (seen in the tokens).
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "log_user_session")]
#[odm(index(keys = "expires", ttl = 3600))]
struct UserSession {
    #[serde(rename = "ex")]
    #[odm(max_items = 4)]
    expires: Vec<String>,
}

fn main() {}
