//! The ESR rule: a compound index ordered Equality → Sort → Range lets one index scan filter, sort and bound a
//! query. The model declares its access pattern; the derive checks that an index serves it in that order (a
//! boolean first, or an index in another order, is a compile error); `explain` shows the server's plan.
//!
//! Run it with `cargo run --example esr_orders`: it starts the embedded test server (or uses `MONGODB_URI`), syncs
//! the ESR index, runs the query of the declared pattern (a merchant's paid orders, newest first, amount in a
//! range) and prints the plan. On mongod the plan is one index scan with no in-memory sort; SecantusDB (the embedded
//! test server) plans differently once a range is present (it scans the collection): the example asks the server
//! what it is (`buildInfo`) and says so when it sees it.

use odm::bson::{oid::ObjectId, DateTime};
use odm::prelude::*;
use serde::{Deserialize, Serialize};

/// An order, with the access pattern the shop runs most and the index that serves it.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(module = "order", collection = "order_header")]
#[odm(index(keys = "merchant, status, -created_at, amount"))] // E, E, S, R
#[odm(query(eq = "merchant, status", sort = "-created_at", range = "amount"))]
struct Order {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "mi")]
    merchant: String,
    #[serde(rename = "st")]
    status: String,
    #[serde(rename = "ca")]
    created_at: DateTime,
    /// In cents.
    #[serde(rename = "am")]
    amount: i64,
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let test_db = odm::testing::database("esr_orders").await;
    let db: &odm::mongodb::Database = &test_db;
    let sync = odm::SchemaSync::new(test_db.client()).database(test_db.name()).model::<Order>();
    sync.await?.require_in_sync()?;
    let index = &Order::indexes()[0];
    assert_eq!(index.name, "idx_mi_st_ca_am");
    println!("the ESR index: {index}");

    let orders = Collection::<Order>::new(db);
    let batch: Vec<Order> = (0..400)
        .map(|i| Order {
            id: ObjectId::new(),
            merchant: format!("M-{}", 100 + i % 4),
            status: if i % 3 == 0 { "paid" } else { "new" }.into(),
            created_at: DateTime::from_millis(1_700_000_000_000 + i * 60_000),
            amount: (i * 7) % 1000,
        })
        .collect();
    orders.insert_many(&batch).await?;

    // The declared pattern: E (merchant, status), S (created_at, newest first), R (50 <= amount < 500).
    let f = Order::fields();
    let query = || f.merchant().eq("M-100").and(f.status().eq("paid")).and(f.amount().gte(50)).and(f.amount().lt(500));
    println!("filter: {}", query().to_document());
    let found = orders.find(query()).sort(f.created_at().desc()).await?;
    let mut expected: Vec<&Order> =
        batch.iter().filter(|o| o.merchant == "M-100" && o.status == "paid" && (50..500).contains(&o.amount)).collect();
    expected.sort_by_key(|o| std::cmp::Reverse(o.created_at));
    assert_eq!(found.iter().collect::<Vec<_>>(), expected);
    println!("{} orders, newest first", found.len());

    let plan = orders.find(query()).sort(f.created_at().desc()).explain().await?;
    println!("plan: {plan}");
    let checks = odm::testing::access_patterns::<Order>(db).await?;
    println!("declared pattern: {}", checks[0]);
    // What to expect depends on the server, so ask it what it is (a MONGODB_URI may name either kind).
    let server = test_db.server_info().await?;
    println!("server: {server}");
    if server.is_secantus() && !plan.uses_index() {
        // SecantusDB does not use an ESR index once a range is present; mongod does.
        println!("(SecantusDB's planner scans the collection here; mongod scans the ESR index once)");
        let prefix = orders.find(f.merchant().eq("M-100").and(f.status().eq("paid"))).sort(f.created_at().desc());
        let prefix = prefix.explain().await?;
        println!("without the range it scans the ESR index: {prefix}");
        assert_eq!(prefix.index.as_deref(), Some("idx_mi_st_ca_am"));
    } else {
        assert_eq!(plan.index.as_deref(), Some("idx_mi_st_ca_am"), "{plan}");
        assert!(!plan.sorts_in_memory() && !plan.scans_collection(), "{plan}");
        assert!(checks[0].is_served(), "{}", checks[0]);
    }
    // Ends the client's sessions while the runtime still serves it.
    test_db.close().await;
    Ok(())
}
