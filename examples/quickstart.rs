//! A sample order, one-to-many fully embedded: an order header with its items inside it, short keys, a bounded
//! item array with its counter, a status enum and a real date.
//!
//! Run it with `cargo run --example quickstart`: it starts the embedded test server (or uses `MONGODB_URI`),
//! creates the collection with the generated validator, round-trips an order, and shows the server rejecting
//! documents that break the rules.

use odm::bson::{doc, oid::ObjectId, DateTime, Decimal128};
use odm::prelude::*;
use serde::{Deserialize, Serialize};

/// One line of an order: name, unit price, quantity.
#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(closed)]
struct OrderItem {
    /// Product name.
    #[serde(rename = "n")]
    #[odm(max_len = 100)]
    name: String,
    /// Unit price.
    #[serde(rename = "p")]
    unit_price: Decimal128,
    /// Quantity ordered.
    #[serde(rename = "q")]
    quantity: i32,
}

/// Where an order stands.
#[derive(Embedded, Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
#[serde(rename_all = "snake_case")]
enum OrderStatus {
    Pending,
    Paid,
    Shipped,
    Refunded,
}

/// An order header with its items embedded.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(module = "order", collection = "order_header", closed)]
#[odm(index(keys = "status, -created_at, total"))]
#[odm(index(keys = "number", unique, name = "idx_order_no"))]
#[odm(index(keys = "items.name"))]
struct Order {
    #[serde(rename = "_id")]
    id: ObjectId,
    /// Order number shown to the customer.
    #[serde(rename = "no")]
    #[odm(not_a_date)]
    number: String,
    /// Freight in cents.
    #[serde(rename = "fr")]
    freight: i64,
    /// Total price in cents.
    #[serde(rename = "tot")]
    total: i64,
    #[serde(rename = "st")]
    status: OrderStatus,
    /// When the order was placed.
    #[serde(rename = "ca")]
    created_at: DateTime,
    /// The embedded items: at most 30, so the document stays small.
    #[serde(rename = "it")]
    #[odm(max_items = 30, counter = "item_count")]
    items: Vec<OrderItem>,
    /// Number of items, kept equal to `items.len()` (checked by the server).
    #[serde(rename = "ic")]
    item_count: i32,
    /// Customer remark; absent when there is none.
    #[serde(rename = "rm", skip_serializing_if = "Option::is_none")]
    remark: Option<String>,
}

fn item(name: &str, cents: &str, quantity: i32) -> OrderItem {
    OrderItem { name: name.into(), unit_price: cents.parse().expect("decimal"), quantity }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let test_db = odm::testing::database("quickstart").await;
    let db: &odm::mongodb::Database = &test_db;

    // What a DBA reviews before launch: the plan, as a report and as a mongosh script.
    let sync = || odm::SchemaSync::new(test_db.client()).database(test_db.name()).model::<Order>();
    let plan = sync().plan().await?;
    println!("Sync plan for `{}`:\n{plan}", Order::COLLECTION);
    println!("As a mongosh script:\n{}", plan.to_mongosh());

    // At startup: create what is missing (collection with validator, level, action; named indexes).
    let report = sync().await?;
    println!("Startup sync:\n{report}");
    assert!(sync().plan().await?.is_in_sync());

    let orders = Collection::<Order>::new(db);

    let items = vec![item("益达口香糖", "8.00", 2), item("大大口香糖", "5.00", 1), item("绿箭口香糖", "10.00", 2)];
    let order = Order {
        id: ObjectId::new(),
        number: "201809270012598323334".into(),
        freight: 0,
        total: 4100,
        status: OrderStatus::Paid,
        created_at: DateTime::now(),
        item_count: items.len() as i32,
        items,
        remark: None,
    };
    orders.insert_one(&order).await?;
    let back = orders.find_one(Order::fields().id().eq(order.id)).await?.expect("inserted order");
    assert_eq!(back, order);
    println!("inserted and read back order {} with {} items\n", back.number, back.items.len());

    // Targeted updates through typed paths: only the changed fields travel, and the item counter moves
    // with the items in the same atomic update.
    let f = Order::fields();
    let extra = item("炫迈口香糖", "12.00", 1);
    let update = Update::new()
        .push(f.items(), extra.clone())
        .inc(f.total(), 1200)
        .set(f.status(), OrderStatus::Paid)
        .set(f.remark(), "请尽快发货".to_owned());
    println!("targeted update: {}", update.clone().build()?.update);
    let after = orders.find_one_and_update(f.id().eq(order.id), update).after().await?.expect("the order exists");
    assert_eq!((after.items.len(), after.item_count, after.status), (4, 4, OrderStatus::Paid));

    // A diff of two values sends only what changed: here one `$set` on the nested quantity, one `$unset`.
    let mut edited = after.clone();
    edited.items[1].quantity = 3;
    edited.remark = None;
    println!("diff update: {}", Update::diff(&after, &edited).build()?.update);
    orders.update_changes(f.id().eq(order.id), &after, &edited).await?;
    let paid = orders.find(f.status().eq(OrderStatus::Paid)).sort(f.created_at().desc()).limit(10).await?;
    assert_eq!(paid, vec![edited.clone()]);
    println!("paid orders: {}\n", paid.len());

    // Typed values the compiler cannot stop: the server's validator does.
    let mut too_many = order.clone();
    too_many.id = ObjectId::new();
    too_many.items = vec![item("x", "1", 1); 31];
    too_many.item_count = 31;
    let err = orders.insert_one(&too_many).await.expect_err("31 items exceed max_items = 30");
    println!("rejected (code {:?}): {err}", err.code());

    let mut out_of_step = order.clone();
    out_of_step.id = ObjectId::new();
    out_of_step.item_count = 7;
    let err = orders.insert_one(&out_of_step).await.expect_err("counter out of step");
    println!("rejected (code {:?}): {err}", err.code());

    // A hostile insert around the ODM, with the raw driver: a price stored as a string and an unknown key.
    let hostile = doc! {
        "no": "X1", "fr": 0_i64, "tot": 100_i64, "st": "paid", "ca": DateTime::now(),
        "it": [{ "n": "x", "p": "8.00", "q": 1 }], "ic": 1, "note": "free text",
    };
    let err = db.collection::<odm::bson::Document>(Order::COLLECTION).insert_one(hostile).await.expect_err("hostile");
    let err = odm::Error::from_write::<Order>(err);
    println!("rejected (code {:?}): {err}", err.code());
    // Ends the client's sessions while the runtime still serves it.
    test_db.close().await;
    Ok(())
}
