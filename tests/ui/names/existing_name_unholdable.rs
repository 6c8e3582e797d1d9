// `name-case`: `existing_name` keeps a name a server holds; one with `$` cannot exist, so it is refused at the name.
// On an embedded type the attribute is refused (it names a collection), and a template makes new collections.
use odm::{Embedded, Model};
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "Order$Header", existing_name)]
struct Order {
    #[serde(rename = "n")]
    number: i64,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "Log_{yyyymm}", existing_name)]
struct Log {
    #[serde(rename = "n")]
    number: i64,
}

#[derive(Embedded, Serialize, Deserialize)]
#[odm(existing_name)]
struct Line {
    #[serde(rename = "n")]
    number: i64,
}

fn main() {}
