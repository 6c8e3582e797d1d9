//! Order statistics with a typed aggregation: paid orders only (`$match`), revenue per customer (`$group`), the
//! customer's name joined from another model (`$lookup`), and a report row shaped for display (`$project`).
//!
//! Run it with `cargo run --example order_stats`: it starts the embedded test server (or uses `MONGODB_URI`), creates
//! both collections with their validators, writes a few orders, and runs the pipeline, asserting the stages it sends
//! (every key a short key, taken from typed paths) and the rows it reads back (decoded into `Report`).

use odm::aggregate;
use odm::bson::{doc, oid::ObjectId};
use odm::prelude::*;
use serde::{Deserialize, Serialize};

/// A customer.
#[derive(Model, Serialize, Deserialize, Debug, Clone)]
#[odm(collection = "crm_customer", closed)]
struct Customer {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "n")]
    #[odm(max_len = 80)]
    name: String,
    #[serde(rename = "e")]
    #[odm(max_len = 254)]
    email: String,
}

/// An order header.
#[derive(Model, Serialize, Deserialize, Debug, Clone)]
#[odm(collection = "order_header", closed)]
struct Order {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "cu")]
    customer: ObjectId,
    #[serde(rename = "st")]
    status: String,
    /// In cents.
    #[serde(rename = "am")]
    amount: i64,
}

/// Revenue per customer (`$group`): the customer is the group's `_id`.
#[derive(Embedded, Serialize, Deserialize, Debug)]
struct Revenue {
    #[serde(rename = "_id")]
    customer: ObjectId,
    #[serde(rename = "rv")]
    revenue: i64,
    #[serde(rename = "n")]
    orders: i64,
    #[serde(rename = "av")]
    average: f64,
}

/// The customer's name, the only field the join reads (`$lookup` projects it inside the join).
#[derive(Embedded, Serialize, Deserialize, Debug, PartialEq)]
struct Name {
    #[serde(rename = "n")]
    name: String,
}

/// Revenue with the customer joined (`$lookup`).
#[derive(Embedded, Serialize, Deserialize, Debug)]
struct WithCustomer {
    #[serde(rename = "_id")]
    customer: ObjectId,
    #[serde(rename = "rv")]
    revenue: i64,
    #[serde(rename = "n")]
    orders: i64,
    #[serde(rename = "av")]
    average: f64,
    #[serde(rename = "c")]
    #[odm(max_items = 1)]
    customers: Vec<Name>,
}

/// A report row (`$project`).
#[derive(Embedded, Serialize, Deserialize, Debug, PartialEq)]
struct Report {
    #[serde(rename = "rv")]
    revenue: i64,
    #[serde(rename = "n")]
    orders: i64,
    #[serde(rename = "c")]
    #[odm(max_items = 1)]
    customers: Vec<Name>,
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let db = odm::testing::database("order_stats").await;
    odm::collection::create_collection::<Customer>(&db).await?;
    odm::collection::create_collection::<Order>(&db).await?;
    let (ada, lin) = (ObjectId::new(), ObjectId::new());
    Collection::<Customer>::new(&db)
        .insert_many([
            Customer { id: ada, name: "Ada".into(), email: "ada@example.com".into() },
            Customer { id: lin, name: "Lin".into(), email: "lin@example.com".into() },
        ])
        .await?;
    let orders = Collection::<Order>::new(&db);
    let order = |customer, status: &str, amount| Order { id: ObjectId::new(), customer, status: status.into(), amount };
    orders
        .insert_many([
            order(ada, "paid", 12_00),
            order(ada, "paid", 30_00),
            order(ada, "cancelled", 99_00),
            order(lin, "paid", 7_50),
        ])
        .await?;

    let (f, c) = (Order::fields(), Customer::fields());
    let (rev, with, out) =
        (aggregate::fields::<Revenue>(), aggregate::fields::<WithCustomer>(), aggregate::fields::<Report>());
    let pipeline = orders
        .aggregate()
        .filter(f.status().eq("paid"))
        .group(|g| {
            g.key(rev.customer(), f.customer())
                .sum(rev.revenue(), f.amount())
                .count(rev.orders())
                .avg(rev.average(), f.amount())
        })
        .lookup(rev.customer(), c.id(), with.customers())
        .sort(with.revenue().desc())
        .project(|p| {
            p.field(out.revenue(), with.revenue())
                .field(out.orders(), with.orders())
                .field(out.customers(), with.customers())
        });
    let stages = pipeline.stages()?;
    for stage in &stages {
        println!("{stage}");
    }
    assert_eq!(stages[0], doc! { "$match": { "st": "paid" } });
    assert_eq!(
        stages[2],
        doc! { "$lookup": {
            "from": "crm_customer", "localField": "_id", "foreignField": "_id",
            "pipeline": [{ "$project": { "n": 1, "_id": 0 } }], "as": "c",
        } }
    );
    assert!(pipeline.lint().is_empty(), "projects early: {:?}", pipeline.lint());

    let rows: Vec<Report> = pipeline.await?;
    for row in &rows {
        println!(
            "{:>8.2} from {} order(s) by {}",
            row.revenue as f64 / 100.0,
            row.orders,
            row.customers.iter().map(|c| c.name.as_str()).collect::<Vec<_>>().join(", ")
        );
    }
    assert_eq!(
        rows,
        [
            Report { revenue: 42_00, orders: 2, customers: vec![Name { name: "Ada".into() }] },
            Report { revenue: 7_50, orders: 1, customers: vec![Name { name: "Lin".into() }] },
        ]
    );
    // Ends the client's sessions while the runtime still serves it.
    db.close().await;
    Ok(())
}
