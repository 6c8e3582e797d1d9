// `name-module`: a `log_` collection is `log_<module>_<table>`.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "log_x", capped(size = 1048576))]
struct Entry {
    #[serde(rename = "m")]
    message: String,
}

fn main() {}
