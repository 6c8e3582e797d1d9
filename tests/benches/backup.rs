//! Dump and restore against hand-written loops doing the same work with the raw driver, in the same run on the same
//! server: odm's `Dump` of one collection against a `find` in `_id` order, in the read mode the dump chose (a
//! snapshot session where the server keeps snapshots), whose documents are written one after another to a `.bson`
//! file (what mongodump writes), and odm's `Restore` of that dump into another database against
//! reading the file back and sending ordered `insert_many` batches of the same size into a collection created with
//! the same validator, then the same index. The source collection carries the model's index, so its dump lists it
//! and both restores build it (each round checks the two restored collections hold the same indexes): the same
//! work on both sides. Each round runs both sides, alternating which goes first; the median of
//! each side over the rounds is the figure, with the CPU time of the server (when it runs on this machine) and of the
//! bench.
//!
//! Run with `cargo bench -p odm-tests --bench backup` (starts the embedded test server, or uses `MONGODB_URI`);
//! `ODM_BENCH_DOCS` and `ODM_BENCH_ROUNDS` change the size (defaults 50000 and 5).

use odm::backup::{Dump, ReadMode, Restore};
use odm::bson::{doc, oid::ObjectId, Document, RawDocumentBuf};
use odm::mongodb::{Client, Database};
use odm::{Embedded, Model};
use serde::{Deserialize, Serialize};
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::Path;
use std::time::{Duration, Instant};

#[path = "../support/median.rs"]
mod median;
use median::median;
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

/// An order, with lines.
#[derive(Model, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[odm(collection = "bench_backup_order", closed, index(keys = "email, -total"))]
struct Order {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "e")]
    #[odm(max_len = 64)]
    email: String,
    #[serde(rename = "t")]
    total: i64,
    #[serde(rename = "l")]
    #[odm(max_items = 8, counter = "line_count")]
    lines: Vec<Line>,
    #[serde(rename = "lc")]
    line_count: i32,
}

const BATCH: usize = 1000;

fn order(i: usize) -> Order {
    let lines = vec![Line { sku: "pen".into(), quantity: 1 }, Line { sku: format!("ink-{}", i % 7), quantity: 2 }];
    Order { id: ObjectId::new(), email: format!("user{i}@example.com"), total: i as i64, line_count: 2, lines }
}

/// odm's dump of the model's collection in `db` into `dir`, in the read mode it chooses for the server; the number of
/// documents, and that mode.
async fn dump_with_odm(client: &Client, db: &str, dir: &Path) -> (u64, ReadMode) {
    let report = Dump::new(client, dir).collection(db, Order::COLLECTION).batch_size(BATCH).await.expect("dump");
    (report.collections.iter().map(|c| c.documents).sum(), report.read_mode)
}

/// The same by hand, in the same read mode: the documents in `_id` order, written one after another, flushed and
/// renamed into place.
async fn dump_by_hand(db: &Database, file: &Path, mode: ReadMode) -> u64 {
    let coll = db.collection::<RawDocumentBuf>(Order::COLLECTION);
    let mut session = db.client().start_session().snapshot(mode == ReadMode::Snapshot).await.expect("session");
    let mut find = coll.find(doc! {}).sort(doc! { "_id": 1 }).batch_size(BATCH as u32);
    if mode == ReadMode::Majority {
        find = find.read_concern(odm::mongodb::options::ReadConcern::majority());
    }
    let mut cursor = find.session(&mut session).await.expect("find");
    let partial = file.with_extension("partial");
    let mut out = BufWriter::new(std::fs::File::create(&partial).expect("create"));
    let mut n = 0;
    while cursor.advance(&mut session).await.expect("read") {
        out.write_all(cursor.current().as_bytes()).expect("write");
        n += 1;
    }
    let file_handle = out.into_inner().expect("flush");
    file_handle.sync_all().expect("sync");
    std::fs::rename(&partial, file).expect("rename");
    n
}

/// odm's restore of the dump in `dir` (database `from`) into database `into`.
async fn restore_with_odm(client: &Client, dir: &Path, from: &str, into: &str) -> u64 {
    let report = Restore::new(client, dir).database(from).into_db(into).batch_size(BATCH).await.expect("restore");
    report.collections.iter().map(|c| c.documents).sum()
}

/// The same by hand: the collection created with the model's validator, the file read back and inserted in ordered
/// batches, then the index built; `staged`, into a temporary collection renamed into place at the end.
async fn restore_by_hand(db: &Database, file: &Path, staged: bool) -> u64 {
    // Staged: loaded into a temporary collection and renamed into place at the end, all or nothing, as odm does.
    let name = if staged { "tmp_restore" } else { Order::COLLECTION };
    let mut create = odm::collection::create_command::<Order>();
    create.insert("create", name);
    db.run_command(create).await.expect("create");
    let coll = db.collection::<RawDocumentBuf>(name);
    let mut input = BufReader::new(std::fs::File::open(file).expect("open"));
    let (mut batch, mut n) = (Vec::with_capacity(BATCH), 0);
    loop {
        let mut len = [0u8; 4];
        match input.read_exact(&mut len) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => break,
            Err(e) => panic!("read: {e}"),
        }
        let mut bytes = len.to_vec();
        bytes.resize(i32::from_le_bytes(len) as usize, 0);
        input.read_exact(&mut bytes[4..]).expect("read a document");
        batch.push(RawDocumentBuf::from_bytes(bytes).expect("a document"));
        if batch.len() == BATCH {
            n += batch.len() as u64;
            coll.insert_many(std::mem::take(&mut batch)).await.expect("insert");
        }
    }
    if !batch.is_empty() {
        n += batch.len() as u64;
        coll.insert_many(batch).await.expect("insert");
    }
    let indexes: Vec<Document> = Order::indexes().iter().map(|i| i.to_document()).collect();
    db.run_command(doc! { "createIndexes": name, "indexes": indexes }).await.expect("indexes");
    if staged {
        let (from, to) = (format!("{}.{name}", db.name()), format!("{}.{}", db.name(), Order::COLLECTION));
        db.client().database("admin").run_command(doc! { "renameCollection": from, "to": to }).await.expect("rename");
    }
    n
}

/// The key patterns of the restored collection's indexes, in name order.
async fn index_keys(db: &Database) -> Vec<(String, Document)> {
    let cursor = db.collection::<Document>(Order::COLLECTION).list_indexes().await.expect("listIndexes");
    let mut keys: Vec<(String, Document)> = futures_util::TryStreamExt::try_collect::<Vec<_>>(cursor)
        .await
        .expect("indexes")
        .into_iter()
        .map(|i| (i.options.and_then(|o| o.name).unwrap_or_default(), i.keys))
        .collect();
    keys.sort_by(|a, b| a.0.cmp(&b.0));
    keys
}

/// One side's figures over the rounds: rates (documents per second) and CPU seconds.
#[derive(Default)]
struct Side {
    rates: Vec<f64>,
    cpu: Vec<f64>,
}

impl Side {
    fn push(&mut self, n: u64, took: Duration, cpu: f64) {
        self.rates.push(n as f64 / took.as_secs_f64());
        self.cpu.push(cpu);
    }
}

fn report(job: &str, n: usize, rounds: usize, odm: Side, hand: Side, with_server: bool) {
    let (o, h) = (median(odm.rates.clone()), median(hand.rates.clone()));
    let ratios: Vec<String> = odm.rates.iter().zip(&hand.rates).map(|(o, h)| format!("{:.2}×", o / h)).collect();
    println!(
        "{job} {n} documents, median of {rounds} rounds: odm {o:.0} docs/s, by hand {h:.0} docs/s, ratio {:.2}× \
         (per round: {})",
        o / h,
        ratios.join(", ")
    );
    let (oc, hc) = (median(odm.cpu), median(hand.cpu));
    let whose = if with_server { "server + bench process" } else { "bench process" };
    println!("  CPU ({whose}), median: odm {oc:.2} s, by hand {hc:.2} s, {:.2}×", oc / hc);
}

fn main() {
    let n: usize = std::env::var("ODM_BENCH_DOCS").ok().and_then(|v| v.parse().ok()).unwrap_or(50_000);
    let rounds: usize = std::env::var("ODM_BENCH_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(5);
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    rt.block_on(async {
        let test_db = odm::testing::database("bench_backup").await;
        let (client, db) = (test_db.client().clone(), test_db.db().clone());
        odm::collection::create_collection::<Order>(&db).await.expect("create");
        let orders = odm::Collection::<Order>::new(&db);
        for chunk in (0..n).collect::<Vec<_>>().chunks(BATCH) {
            orders.insert_many(chunk.iter().map(|&i| order(i))).await.expect("seed");
        }
        // The model's index on the source, so the dump lists it and odm's restore builds it, as the loop does.
        let indexes: Vec<Document> = Order::indexes().iter().map(|i| i.to_document()).collect();
        db.run_command(doc! { "createIndexes": Order::COLLECTION, "indexes": indexes }).await.expect("index");
        let uri = odm::testing::server().uri();
        let server = server_pid(&port_of(uri));
        let cpu = || server.as_deref().map_or(0.0, cpu_seconds) + cpu_seconds("self");
        let scratch = std::env::temp_dir().join(format!("odm_bench_backup_{}", std::process::id()));
        let (mut dump_odm, mut dump_hand, mut restore_odm, mut restore_hand) =
            (Side::default(), Side::default(), Side::default(), Side::default());
        let mut restore_staged = Side::default();
        // The read mode odm picks for this server (a snapshot where the server keeps them), which the hand-written
        // dump uses too.
        let probe = scratch.join("probe");
        let (_, mode) = dump_with_odm(&client, db.name(), &probe).await;
        std::fs::remove_dir_all(&probe).ok();
        println!("read mode: {}", mode.as_str());
        for round in 0..rounds {
            let odm_dir = scratch.join(format!("odm_{round}"));
            let hand_dir = scratch.join(format!("hand_{round}"));
            std::fs::create_dir_all(&hand_dir).expect("scratch directory");
            let hand_file = hand_dir.join("orders.bson");
            let into_odm = format!("{}_r{round}o", db.name());
            let into_hand = client.database(&format!("{}_r{round}h", db.name()));
            for side in [round % 2, 1 - round % 2] {
                let (started, before) = (Instant::now(), cpu());
                if side == 0 {
                    let (dumped, _) = dump_with_odm(&client, db.name(), &odm_dir).await;
                    dump_odm.push(dumped, started.elapsed(), cpu() - before);
                    let (started, before) = (Instant::now(), cpu());
                    let restored = restore_with_odm(&client, &odm_dir, db.name(), &into_odm).await;
                    restore_odm.push(restored, started.elapsed(), cpu() - before);
                    assert_eq!((dumped, restored), (n as u64, n as u64));
                } else {
                    let dumped = dump_by_hand(&db, &hand_file, mode).await;
                    dump_hand.push(dumped, started.elapsed(), cpu() - before);
                    let (started, before) = (Instant::now(), cpu());
                    let restored = restore_by_hand(&into_hand, &hand_file, false).await;
                    restore_hand.push(restored, started.elapsed(), cpu() - before);
                    assert_eq!((dumped, restored), (n as u64, n as u64));
                    let staged_db = client.database(&format!("{}_r{round}s", db.name()));
                    let (started, before) = (Instant::now(), cpu());
                    let staged = restore_by_hand(&staged_db, &hand_file, true).await;
                    restore_staged.push(staged, started.elapsed(), cpu() - before);
                    assert_eq!(index_keys(&staged_db).await.len(), 2, "the staged loop's indexes");
                    staged_db.drop().await.expect("drop");
                }
            }
            // Both restores built the same indexes: the same work on both sides.
            let odm_indexes = index_keys(&client.database(&into_odm)).await;
            assert_eq!(odm_indexes, index_keys(&into_hand).await, "the restored indexes differ");
            assert_eq!(odm_indexes.len(), 2, "`_id_` and the model's index: {odm_indexes:?}");
            // Both dumps hold the same bytes: the same documents in the same order.
            let odm_file = odm_dir.join(db.name()).join(format!("{}.bson", Order::COLLECTION));
            let same = std::fs::read(&odm_file).expect("odm's file") == std::fs::read(&hand_file).expect("the file");
            assert!(same, "the two dumps differ");
            println!(
                "round {round} ({} first), docs/s: dump odm {:.0}, by hand {:.0}; restore odm {:.0}, by hand {:.0}",
                if round % 2 == 0 { "odm" } else { "by hand" },
                dump_odm.rates[round],
                dump_hand.rates[round],
                restore_odm.rates[round],
                restore_hand.rates[round],
            );
            client.database(&into_odm).drop().await.expect("drop");
            into_hand.drop().await.expect("drop");
            std::fs::remove_dir_all(&odm_dir).ok();
            std::fs::remove_dir_all(&hand_dir).ok();
        }
        std::fs::remove_dir_all(&scratch).ok();
        let with_server = server.is_some();
        report("dump", n, rounds, dump_odm, dump_hand, with_server);
        let odm_again = Side { rates: restore_odm.rates.clone(), cpu: restore_odm.cpu.clone() };
        report("restore", n, rounds, restore_odm, restore_hand, with_server);
        println!("against the loop loading a temporary collection and renaming it into place (all or nothing):");
        report("restore", n, rounds, odm_again, restore_staged, with_server);
        test_db.close().await;
    });
}
