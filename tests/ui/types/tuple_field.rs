// `type-one-bson-type`: a tuple is stored as an array of mixed types.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "geo_place")]
struct Place {
    #[serde(rename = "ll")]
    lat_lng: (f64, f64),
}

fn main() {}
