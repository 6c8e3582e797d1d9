//! Batch migration throughput: `Collection::migrate` against a hand-written bulk-replace loop over the same documents,
//! side by side in one run on the same server (target ≥ 0.9× the loop's documents per second).
//!
//! Each round seeds two collections with the same version-1 documents (100,000 by default), then migrates one with
//! odm and the other with the loop, alternating which goes first; the median of each side over the rounds is
//! compared. The loop reads the same way odm does (one cursor over `_v ≠ 2` in `_id` order, on the `_id` index,
//! batches of 1000), decodes and upgrades by hand, and sends each batch as one `update` command of plain replacements
//! filtered by `_id` only (no guard: it would overwrite a concurrent change). odm's statements carry the guard (the
//! document as read, compared by the server) and go through odm's checks.
//!
//! Run with `cargo bench -p odm-tests --bench migrate` (starts the embedded test server, or uses `MONGODB_URI`);
//! `ODM_BENCH_DOCS` and `ODM_BENCH_ROUNDS` change the size (defaults 100000 and 5); `ODM_BENCH_GUARD=version` runs
//! odm's migration with `Guard::Version` instead of the default `Guard::Document`. It also prints the CPU time
//! of the server process (found by its `--port`, when it runs on this machine) and of the bench, per side.

use futures_util::TryStreamExt;
use odm::bson::{doc, oid::ObjectId, DateTime, RawDocumentBuf};
use odm::{Collection, Embedded, Model, Upgrade, Version};
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};

#[path = "../support/median.rs"]
mod median;
use median::median;
#[path = "../support/cpu.rs"]
mod cpu;
use cpu::{cpu_seconds, port_of, server_pid};

const BATCH: usize = 1000;

/// A postal address, embedded.
#[derive(Embedded, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[odm(closed)]
struct Address {
    #[serde(rename = "s")]
    street: String,
    #[serde(rename = "c")]
    city: String,
    #[serde(rename = "z")]
    zip: String,
}

/// Version 1: one name, e-mails without a counter.
#[derive(odm::Embedded, Serialize, Deserialize)]
struct CustomerV1 {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "_v")]
    v: i32,
    #[serde(rename = "n")]
    name: String,
    #[serde(rename = "em")]
    #[odm(max_items = 16)]
    emails: Vec<String>,
    #[serde(rename = "ad")]
    address: Address,
    #[serde(rename = "ca")]
    created_at: DateTime,
    #[serde(rename = "sc")]
    score: i64,
}

impl Upgrade for CustomerV1 {
    type Next = Customer;
    fn upgrade(self) -> Customer {
        let (first, last) = self.name.split_once(' ').unwrap_or((&self.name, ""));
        Customer {
            id: self.id,
            v: Version,
            first: first.into(),
            last: last.into(),
            email_count: self.emails.len() as i32,
            emails: self.emails,
            address: self.address,
            created_at: self.created_at,
            score: self.score,
        }
    }
}

/// Version 2: the name split in two, e-mails counted.
#[derive(Model, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[odm(collection = "bench_customer", version = 2, older(CustomerV1), closed)]
struct Customer {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "_v")]
    v: Version<2>,
    #[serde(rename = "f")]
    first: String,
    #[serde(rename = "l")]
    last: String,
    #[serde(rename = "em")]
    #[odm(max_items = 5, counter = "email_count")]
    emails: Vec<String>,
    #[serde(rename = "ec")]
    email_count: i32,
    #[serde(rename = "ad")]
    address: Address,
    #[serde(rename = "ca")]
    created_at: DateTime,
    #[serde(rename = "sc")]
    score: i64,
}

fn seed_docs(n: usize) -> Vec<RawDocumentBuf> {
    let at = DateTime::from_millis(1_760_000_000_000);
    (0..n)
        .map(|i| {
            let v1 = CustomerV1 {
                id: ObjectId::new(),
                v: 1,
                name: format!("First{i} Last{i}"),
                emails: vec![format!("a{i}@example.com"), format!("b{i}@example.com")],
                address: Address {
                    street: format!("{i} Main Street"),
                    city: "Springfield".into(),
                    zip: format!("{i:05}"),
                },
                created_at: at,
                score: i as i64,
            };
            odm::bson::serialize_to_raw_document_buf(&v1).expect("encode v1")
        })
        .collect()
}

/// A fresh collection (with the model's validator) holding `docs`, at version 1.
async fn seeded(
    db: &odm::mongodb::Database,
    name: &str,
    docs: &[RawDocumentBuf],
) -> odm::mongodb::Collection<RawDocumentBuf> {
    let raw = db.collection::<RawDocumentBuf>(name);
    raw.drop().await.expect("drop");
    let mut create = odm::collection::create_command::<Customer>();
    create.insert("create", name);
    db.run_command(create).await.expect("create");
    for chunk in docs.chunks(10_000) {
        raw.insert_many(chunk.to_vec()).bypass_document_validation(true).await.expect("seed");
    }
    raw
}

/// odm's migration of the model's collection.
async fn with_odm(db: &odm::mongodb::Database) -> u64 {
    let coll = Collection::<Customer>::new(db);
    let guard = match std::env::var("ODM_BENCH_GUARD").as_deref() {
        Ok("version") => odm::migrate::Guard::Version,
        _ => odm::migrate::Guard::Document,
    };
    let report = coll.migrate().batch_size(BATCH).guard(guard).await.expect("migrate");
    assert!(report.is_complete(), "{report}");
    report.migrated
}

/// The hand-written loop: same reads, plain replacements filtered by `_id`.
async fn by_hand(db: &odm::mongodb::Database, raw: &odm::mongodb::Collection<RawDocumentBuf>) -> u64 {
    let mut cursor = raw
        .find(doc! { "_v": { "$ne": 2_i64 } })
        .sort(doc! { "_id": 1 })
        .hint(odm::mongodb::options::Hint::Keys(doc! { "_id": 1 }))
        .await
        .expect("find");
    let mut migrated = 0;
    let mut batch: Vec<RawDocumentBuf> = Vec::with_capacity(BATCH);
    loop {
        let next = cursor.try_next().await.expect("read");
        let finished = next.is_none();
        if let Some(doc) = next {
            batch.push(doc);
            if batch.len() < BATCH {
                continue;
            }
        }
        if !batch.is_empty() {
            let mut updates = odm::bson::RawArrayBuf::new();
            for old in &batch {
                let v1: CustomerV1 = odm::bson::deserialize_from_slice(old.as_bytes()).expect("decode v1");
                let new = odm::bson::serialize_to_raw_document_buf(&v1.upgrade()).expect("encode");
                let mut q = RawDocumentBuf::new();
                q.append(odm::bson::cstr!("_id"), old.get("_id").expect("_id").expect("_id"));
                let mut statement = RawDocumentBuf::new();
                statement.append(odm::bson::cstr!("q"), q);
                statement.append(odm::bson::cstr!("u"), new);
                updates.push(statement);
            }
            let mut command = RawDocumentBuf::new();
            command.append(odm::bson::cstr!("update"), raw.name());
            command.append(odm::bson::cstr!("updates"), updates);
            command.append(odm::bson::cstr!("ordered"), false);
            let reply = db.run_raw_command(command).await.expect("update");
            assert!(reply.get_array("writeErrors").is_err(), "{reply}");
            migrated += batch.len() as u64;
            batch.clear();
        }
        if finished {
            break;
        }
    }
    migrated
}

fn main() {
    let n: usize = std::env::var("ODM_BENCH_DOCS").ok().and_then(|v| v.parse().ok()).unwrap_or(100_000);
    let rounds: usize = std::env::var("ODM_BENCH_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(5);
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    rt.block_on(async {
        let test_db = odm::testing::database("bench_migrate").await;
        let db = test_db.db().clone();
        let docs = seed_docs(n);
        // `mongodb://127.0.0.1:<port>/?…`
        let uri = odm::testing::server().uri();
        let port = port_of(uri);
        let server = server_pid(&port);
        let cpu = || server.as_deref().map_or(0.0, cpu_seconds) + cpu_seconds("self");
        let (mut odm_rates, mut hand_rates, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
        let (mut odm_cpu, mut hand_cpu) = (Vec::new(), Vec::new());
        for round in 0..rounds {
            // odm migrates the model's collection; the loop a copy under another name.
            let odm_coll = seeded(&db, Customer::COLLECTION, &docs).await;
            let hand_coll = seeded(&db, "bench_customer_by_hand", &docs).await;
            let mut odm_secs = Duration::ZERO;
            let mut hand_secs = Duration::ZERO;
            let (mut o_cpu, mut h_cpu) = (0.0, 0.0);
            for side in [round % 2, 1 - round % 2] {
                let (started, cpu_before) = (Instant::now(), cpu());
                if side == 0 {
                    assert_eq!(with_odm(&db).await, n as u64);
                    odm_secs = started.elapsed();
                    o_cpu = cpu() - cpu_before;
                } else {
                    assert_eq!(by_hand(&db, &hand_coll).await, n as u64);
                    hand_secs = started.elapsed();
                    h_cpu = cpu() - cpu_before;
                }
            }
            odm_cpu.push(o_cpu);
            hand_cpu.push(h_cpu);
            for coll in [&odm_coll, &hand_coll] {
                assert_eq!(coll.count_documents(doc! { "_v": 2 }).await.unwrap(), n as u64);
            }
            let (o, h) = (n as f64 / odm_secs.as_secs_f64(), n as f64 / hand_secs.as_secs_f64());
            println!(
                "round {round} ({} first): odm {o:.0} docs/s ({odm_secs:.1?}, {o_cpu:.1} s CPU), by hand {h:.0} docs/s \
                 ({hand_secs:.1?}, {h_cpu:.1} s CPU), ratio {:.2}×",
                if round % 2 == 0 { "odm" } else { "by hand" },
                o / h
            );
            odm_rates.push(o);
            hand_rates.push(h);
            ratios.push(o / h);
        }
        println!(
            "migrate {n} documents, median of {rounds} rounds: odm {:.0} docs/s, hand-written bulk replace {:.0} docs/s, \
             ratio {:.2}× (per round: {})",
            median(odm_rates.clone()),
            median(hand_rates.clone()),
            median(odm_rates) / median(hand_rates),
            ratios.iter().map(|r| format!("{r:.2}×")).collect::<Vec<_>>().join(", ")
        );
        if server.is_some() {
            let (o, h) = (median(odm_cpu), median(hand_cpu));
            println!(
                "CPU (server + bench process), median: odm {o:.1} s, by hand {h:.1} s: throughput per CPU second {:.2}×",
                h / o
            );
        }
    });
}
