//! How the schema checker's time grows with the collection: `check_schema().run()` over N, 2N, 4N, … documents
//! (about one in ten failing the validator, in several ways), printing each size's wall and CPU time (of the server
//! process, when it runs on this machine, and of the bench) and their ratios to the previous size. A ratio near 2
//! means the time grows linearly; near 4, with the square of the collection.
//!
//! Run with `cargo bench -p odm-tests --bench check` (starts the embedded test server, or uses `MONGODB_URI`);
//! `ODM_BENCH_DOCS` sets N (default 1000), `ODM_BENCH_STEPS` how many sizes (default 4: N to 8N) and
//! `ODM_BENCH_ROUNDS` how many checks per size, the sizes taking turns, of which the fastest counts (default 3).

use odm::bson::{doc, oid::ObjectId, Document};
use odm::{Collection, Embedded, Model};
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};

#[path = "../support/cpu.rs"]
mod cpu;
use cpu::{cpu_seconds, port_of, server_pid};

/// One line of an order.
#[derive(Embedded, Serialize, Deserialize, Clone, Debug, PartialEq)]
struct Line {
    #[serde(rename = "s")]
    #[odm(max_len = 16)]
    sku: String,
    #[serde(rename = "q")]
    quantity: i32,
}

/// An order, with lines and a lowercase e-mail.
#[derive(Model, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[odm(collection = "bench_check_order", closed)]
struct Order {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "e")]
    email: odm::Lowercase,
    #[serde(rename = "t")]
    total: i64,
    #[serde(rename = "l")]
    #[odm(max_items = 8, counter = "line_count")]
    lines: Vec<Line>,
    #[serde(rename = "lc")]
    line_count: i32,
}

/// `n` orders as stored, one in ten failing in one of five ways (written around odm: no validator on the collection).
fn seed_docs(n: usize) -> (Vec<Document>, u64) {
    let mut failing = 0;
    let docs = (0..n)
        .map(|i| {
            let mut d = doc! {
                "_id": ObjectId::new(), "e": format!("user{i}@example.com"), "t": i as i64,
                "l": [{ "s": "pen", "q": 1 }, { "s": "ink", "q": 2 }], "lc": 2,
            };
            if i % 10 == 3 {
                failing += 1;
                match (i / 10) % 5 {
                    0 => d.insert("t", "twelve"),
                    1 => d.insert("l", vec![doc! { "s": "pen", "q": "two" }]),
                    2 => d.insert("e", format!("User{i}@Example.com")),
                    3 => d.insert("lc", 7),
                    _ => d.insert("zz", true),
                };
            }
            d
        })
        .collect();
    (docs, failing)
}

fn main() {
    let var = |name: &str, default: usize| std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default);
    let (base, steps, rounds) = (var("ODM_BENCH_DOCS", 1000), var("ODM_BENCH_STEPS", 4), var("ODM_BENCH_ROUNDS", 3));
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    rt.block_on(async {
        let server = server_pid(&port_of(odm::testing::server().uri()));
        let cpu = || server.as_deref().map_or(0.0, cpu_seconds) + cpu_seconds("self");
        // One database per size, seeded once; the sizes take turns in every round, so each sees the same load.
        let mut sizes = Vec::new();
        for step in 0..steps {
            let n = base << step;
            let test_db = odm::testing::database(&format!("bench_check_{n}")).await;
            let raw = test_db.db().collection::<Document>(Order::COLLECTION);
            let (docs, failing) = seed_docs(n);
            for chunk in docs.chunks(1000) {
                raw.insert_many(chunk).await.expect("seed");
            }
            sizes.push((n, failing, test_db, Duration::MAX, f64::MAX));
        }
        for _ in 0..rounds.max(1) {
            for (n, failing, test_db, wall, secs) in &mut sizes {
                let coll = Collection::<Order>::new(test_db.db());
                let (started, cpu_before) = (Instant::now(), cpu());
                let report = coll.check_schema().await.expect("check");
                *wall = (*wall).min(started.elapsed());
                *secs = secs.min(cpu() - cpu_before);
                // The check must find what was seeded: a fast wrong answer is no result.
                assert_eq!((report.checked, report.failing), (*n as u64, *failing), "{report}");
            }
        }
        let mut previous: Option<(Duration, f64)> = None;
        for (n, failing, _, wall, secs) in &sizes {
            let ratio = previous.map_or_else(String::new, |(w, s)| {
                format!("; {:.2}x the wall time and {:.2}x the CPU time of half as many", wall.as_secs_f64() / w.as_secs_f64(), secs / s)
            });
            println!(
                "check_schema: {n} documents ({failing} failing): {:.2} s wall, {secs:.2} s CPU (server + client), fastest of {rounds}{ratio}",
                wall.as_secs_f64()
            );
            previous = Some((*wall, *secs));
        }
        for (_, _, test_db, _, _) in sizes {
            test_db.close().await;
        }
    });
}
