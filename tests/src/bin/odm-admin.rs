//! The admin command line of a small application, run by `tests/it/cli.rs` as an operator would run it: an order
//! model that names its database and declares an index, a versioned contact model that names none, and an event log
//! with one collection per month.

use odm::bson::{oid::ObjectId, DateTime};
use odm::{Model, Upgrade, Version};
use serde::{Deserialize, Serialize};

/// An order: closed, with an index on the customer and the newest first.
#[derive(Model, Serialize, Deserialize)]
#[odm(db = "shop", collection = "order_header", closed, index(keys = "customer, -created"))]
struct Order {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "cu")]
    customer: String,
    #[serde(rename = "am")]
    amount: i64,
    #[serde(rename = "ca")]
    created: DateTime,
}

/// Version 1 of a contact: one full name.
#[derive(odm::Embedded, Deserialize)]
struct ContactV1 {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "n")]
    name: String,
}

impl Upgrade for ContactV1 {
    type Next = Contact;
    fn upgrade(self) -> Contact {
        let (first, last) = self.name.split_once(' ').unwrap_or((&self.name, ""));
        Contact { id: self.id, v: Version, first: first.into(), last: last.into() }
    }
}

/// Version 2 of a contact: the name split in two. Names no database: the operator passes `--db`.
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "crm_contact", version = 2, older(ContactV1), closed)]
struct Contact {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "_v")]
    v: Version<2>,
    #[serde(rename = "f")]
    first: String,
    #[serde(rename = "l")]
    last: String,
}

/// An application event, logged in one collection per month (`log_app_event_202612`), the latest twelve kept, in
/// a database of its own.
#[derive(Model, Serialize, Deserialize)]
#[odm(db = "ops", collection = "log_app_event_{yyyymm}", keep_periods = 12, closed)]
struct AppEvent {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "k")]
    kind: String,
}

#[tokio::main]
async fn main() -> odm::cli::Exit {
    odm::cli::Admin::new("odm-admin")
        .version(env!("CARGO_PKG_VERSION"))
        .model::<Order>()
        .model::<Contact>()
        .model::<AppEvent>()
        .await
}
