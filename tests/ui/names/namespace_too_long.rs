// `name-length`: `<db>.<collection>` is at most 64 bytes; the collection alone (60 bytes) fits, `analytics.` not.
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(db = "analytics", collection = "report_daily_active_users_by_region_and_device_and_channel")]
struct Report {
    #[serde(rename = "n")]
    count: i64,
}

fn main() {}
