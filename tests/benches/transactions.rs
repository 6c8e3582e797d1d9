//! Transactions under contention: how many times the bodies of W concurrent read-modify-write transactions on one
//! document run for W commits (each body reads, optionally holds the transaction open a few milliseconds, writes), and how long the W commits take (the retry policy's cost: without backoff, a
//! conflicting transaction is run again at once and conflicts again).
//!
//! Run with `cargo bench -p odm-tests --bench transactions` (starts the embedded test server, or uses
//! `MONGODB_URI`, which must name a replica set or a sharded cluster); `ODM_BENCH_ROUNDS` (default 5) sets the
//! rounds per writer count. Prints, per writer count, the body runs per commit and the wall time of a round
//! (median over the rounds, with min and max).

#[path = "../support/median.rs"]
mod median;

use median::median;
use odm::bson::oid::ObjectId;
use odm::{Collection, Model, Update};
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "bank_account", read_concern = "majority", write_concern(w = "majority"))]
struct Account {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "b")]
    balance: i64,
}

/// One round: `writers` transactions at once, each reading the balance and writing it back plus one, `hold` later.
async fn round(db: &odm::mongodb::Database, writers: usize, hold: Duration) -> (usize, Duration) {
    let id = ObjectId::new();
    Collection::<Account>::new(db).insert_one(Account { id, balance: 0 }).await.expect("insert");
    let runs = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let tasks: Vec<_> = (0..writers)
        .map(|_| {
            let (db, runs) = (db.clone(), runs.clone());
            tokio::spawn(async move {
                let client = db.client().clone();
                odm::Transaction::new(&client)
                    .concerns_of::<Account>()
                    .run(|s| {
                        runs.fetch_add(1, Ordering::Relaxed);
                        let accounts = Collection::<Account>::new(&db).with_session(&s);
                        async move {
                            let f = Account::fields();
                            let before = accounts.find_one(f.id().eq(id)).await?.expect("account").balance;
                            if !hold.is_zero() {
                                tokio::time::sleep(hold).await;
                            }
                            accounts.update_one(f.id().eq(id), Update::new().set(f.balance(), before + 1)).await?;
                            Ok(())
                        }
                    })
                    .await
            })
        })
        .collect();
    for task in tasks {
        task.await.expect("task").expect("every transaction commits");
    }
    let elapsed = started.elapsed();
    let stored = Collection::<Account>::new(db).find_one(Account::fields().id().eq(id)).await.unwrap().unwrap();
    assert_eq!(stored.balance, writers as i64, "no lost update");
    (runs.load(Ordering::Relaxed), elapsed)
}

fn main() {
    let rounds: usize = std::env::var("ODM_BENCH_ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(5);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("runtime");
    runtime.block_on(async {
        let test_db = odm::testing::database("bench_tx").await;
        let db: odm::mongodb::Database = test_db.db().clone();
        odm::collection::create_collection::<Account>(&db).await.expect("create");
        println!("server: {}", test_db.server_info().await.expect("server info"));
        for (writers, hold_ms) in [(2, 0), (2, 5), (8, 0), (8, 5), (25, 0)] {
            let hold = Duration::from_millis(hold_ms);
            let mut per_commit = Vec::new();
            let mut wall = Vec::new();
            for _ in 0..rounds {
                let (runs, elapsed) = round(&db, writers, hold).await;
                per_commit.push(runs as f64 / writers as f64);
                wall.push(elapsed);
            }
            let (min_r, max_r) = (per_commit.iter().cloned().fold(f64::MAX, f64::min), per_commit.iter().cloned().fold(0.0, f64::max));
            let (min_w, max_w) = (*wall.iter().min().unwrap(), *wall.iter().max().unwrap());
            println!(
                "transactions_under_contention writers={writers} hold={hold_ms}ms rounds={rounds}: body runs per commit median {:.2} \
                 (min {min_r:.2}, max {max_r:.2}); round wall median {:?} (min {min_w:?}, max {max_w:?})",
                median(per_commit.clone()),
                median(wall.clone()),
            );
        }
        drop(db);
        test_db.close().await;
    });
}
