// A log kept one collection per month, the latest twelve: the third way to bound a log beside capped and TTL.
use odm::template::{Placeholder, NameTemplate};
use odm::Model;
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "log_app_event_{yyyymm}", keep_periods = 12)]
struct Event {
    #[serde(rename = "k")]
    kind: String,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_order_{name}")]
struct Order {
    #[serde(rename = "t")]
    total: i64,
}

fn main() {
    assert_eq!(
        Event::TEMPLATE,
        Some(NameTemplate { prefix: "log_app_event_", placeholder: Placeholder::Month, suffix: "", keep_periods: Some(12) })
    );
    assert_eq!(Event::COLLECTION, "log_app_event_{yyyymm}");
    let t = Order::TEMPLATE.expect("a template");
    assert_eq!(t.name_of(&"acme".into()).unwrap(), "shop_order_acme");
}
