//! Typed aggregation against a real server: every stage, decode errors naming the output type's fields, the stage
//! order, the whole-documents flag, `$lookup` between two models, `$out`/`$merge` into a model's collection checked
//! by its validator, and a pipeline inside a transaction. This file holds the models and seeding the topics share; each
//! topic is a module of its own.

use crate::support;

mod groups;
mod order;
mod refusals;
mod stages;
mod writes;

use futures_util::TryStreamExt;
use odm::aggregate::{self, Pipeline};
use odm::bson::{doc, oid::ObjectId, Document};
use odm::error::{Clause, Invalid};
use odm::{Collection, Embedded, Filter, Model};
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Line {
    #[serde(rename = "sk")]
    sku: String,
    #[serde(rename = "q")]
    quantity: i32,
}

#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "order_header")]
struct Order {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "cu")]
    customer: ObjectId,
    #[serde(rename = "st")]
    status: String,
    #[serde(rename = "am")]
    amount: i64,
    #[serde(rename = "it")]
    #[odm(max_items = 20)]
    items: Vec<Line>,
}

#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "crm_customer")]
struct Customer {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "n")]
    name: String,
    #[serde(rename = "e")]
    email: String,
}

/// One row per customer.
#[derive(Embedded, Serialize, Deserialize, Debug, PartialEq)]
struct PerCustomer {
    #[serde(rename = "_id")]
    customer: ObjectId,
    #[serde(rename = "t")]
    total: i64,
    #[serde(rename = "av")]
    average: f64,
    #[serde(rename = "lo")]
    smallest: i64,
    #[serde(rename = "hi")]
    largest: i64,
    #[serde(rename = "all")]
    #[odm(max_items = 100)]
    amounts: Vec<i64>,
    #[serde(rename = "ss")]
    #[odm(max_items = 10)]
    statuses: Vec<String>,
    #[serde(rename = "f")]
    first: i64,
    #[serde(rename = "l")]
    last: i64,
    #[serde(rename = "n")]
    orders: i64,
}

const ALICE: ObjectId = ObjectId::from_bytes([1; 12]);
const BOB: ObjectId = ObjectId::from_bytes([2; 12]);

fn order(i: u8, customer: ObjectId, status: &str, amount: i64, items: &[(&str, i32)]) -> Order {
    Order {
        id: ObjectId::from_bytes([10 + i; 12]),
        customer,
        status: status.into(),
        amount,
        items: items.iter().map(|&(sku, quantity)| Line { sku: sku.into(), quantity }).collect(),
    }
}

async fn seeded(name: &str) -> (odm::testing::TestDatabase, Collection<Order>) {
    let (db, orders) = support::setup::created::<Order>(name).await;
    odm::collection::create_collection::<Customer>(&db).await.unwrap();
    orders
        .insert_many([
            order(1, ALICE, "paid", 30, &[("pen", 2), ("ink", 1)]),
            order(2, ALICE, "paid", 70, &[("pen", 5)]),
            order(3, ALICE, "new", 500, &[("desk", 1)]),
            order(4, BOB, "paid", 10, &[("ink", 3)]),
        ])
        .await
        .unwrap();
    Collection::<Customer>::new(&db)
        .insert_many([
            Customer { id: ALICE, name: "Alice".into(), email: "a@x.io".into() },
            Customer { id: BOB, name: "Bob".into(), email: "b@x.io".into() },
        ])
        .await
        .unwrap();
    (db, orders)
}

// Output types the pipelines of more than one topic write into.

/// A status and its revenue, keyed by a field other than `_id`.
#[derive(Embedded, Serialize, Deserialize, Debug, PartialEq)]
struct StatusRevenue {
    #[serde(rename = "st")]
    status: String,
    #[serde(rename = "rv")]
    revenue: i64,
}

/// How many.
#[derive(Embedded, Serialize, Deserialize, Debug, PartialEq)]
struct Count {
    #[serde(rename = "n")]
    n: i64,
}

/// Two counts side by side.
#[derive(Embedded, Serialize, Deserialize, Debug, PartialEq)]
struct Report {
    #[serde(rename = "pd")]
    #[odm(max_items = 1)]
    paid: Vec<Count>,
    #[serde(rename = "top")]
    #[odm(max_items = 2)]
    top: Vec<Listed>,
}

/// An order reduced to what a list shows.
#[derive(Embedded, Serialize, Deserialize, Debug, PartialEq)]
struct Listed {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "st")]
    status: String,
    #[serde(rename = "v")]
    value: i64,
}

/// An order line on its own, with its order's customer.
#[derive(Embedded, Serialize, Deserialize, Debug, PartialEq)]
struct OrderLine {
    #[serde(rename = "cu")]
    customer: ObjectId,
    #[serde(rename = "ln")]
    line: Line,
}
