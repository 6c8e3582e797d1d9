// A TTL index may expire on an array of dates, but not on an array of anything else: behind an alias and nested in
// an embedded document, const assertions decide.
use odm::{Embedded, Model};
use serde::{Deserialize, Serialize};

type Stamps = Vec<i64>;

#[derive(Embedded, Serialize, Deserialize)]
pub struct Window {
    #[serde(rename = "e")]
    #[odm(max_items = 4)]
    ends: Vec<String>,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "log_user_session")]
#[odm(index(keys = "stamps", ttl = 60))]
#[odm(index(keys = "window.ends", ttl = 0))]
struct UserSession {
    #[serde(rename = "st")]
    #[odm(max_items = 4)]
    stamps: Stamps,
    #[serde(rename = "w")]
    window: Window,
}

fn main() {}
