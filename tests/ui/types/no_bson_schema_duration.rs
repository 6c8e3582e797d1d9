// A field's type needs a `BsonSchema` impl: `std::time::Duration` serializes as `{secs, nanos}`.
use odm::Model;
use serde::{Deserialize, Serialize};
use std::time::Duration;

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "job_run")]
struct Run {
    #[serde(rename = "tt")]
    took: Duration,
}

fn main() {}
