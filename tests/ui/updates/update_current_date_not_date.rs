// `$currentDate` writes a BSON date or timestamp: the field must be `bson::DateTime` or `bson::Timestamp`.
use odm::{Model, Update};
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_review")]
struct Review {
    #[serde(rename = "ua")]
    updated_at: i64,
}

fn main() {
    let _ = Update::<Review>::new().current_date(Review::fields().updated_at());
}
