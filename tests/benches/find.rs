//! Peak memory of reading many documents: `find(…).await` against the driver's own typed `try_collect` of the same
//! documents, and against reading every raw document first and decoding after (how `find` read before it decoded
//! each document as it arrived).
//!
//! Run with `cargo bench -p odm-tests --bench find` (starts the embedded test server, or uses `MONGODB_URI`);
//! `ODM_BENCH_DOCS` and `ODM_BENCH_ROUNDS` change the size (defaults 100000 and 3). The bench seeds one collection,
//! then runs each read in a fresh process of its own (this binary again, with `ODM_BENCH_FIND_SIDE` set), which
//! prints its peak resident memory (`VmHWM`, as `/usr/bin/time -v` reports it) after the read; the sides alternate
//! and the median of each is compared. A fresh process per read means no side inherits another's heap.
//!
//! With `ODM_BENCH_LOOP` set it is the odm side of `scripts/read_cost.py` instead (see [`instruction_loop`]).

#[path = "../support/median.rs"]
mod median;
#[path = "../support/process.rs"]
mod process;
mod sample;

use futures_util::TryStreamExt;
use median::median;
use odm::bson::{self, doc, RawDocumentBuf};
use odm::{Collection, Filter, Model};
use process::{env_usize, peak_kib};
use sample::{Order, SerdeOrder};
use std::process::Command;

/// The database the child processes read (on the parent's server).
const DB: &str = "bench_find";

/// The sample order, numbered `i`.
fn order(i: usize) -> Order {
    Order { number: format!("20180927001259{i:07}"), ..sample::order() }
}

/// The sides, each read in a process of its own.
const SIDES: [&str; 3] = ["odm", "driver", "raw_then_decode"];

/// One read of every document, as `side` reads it; prints `<documents> <peak KiB>`.
async fn read(side: &str) {
    let client = odm::mongodb::Client::with_uri_str(std::env::var("MONGODB_URI").expect("set by the parent"))
        .await
        .expect("client");
    let db = client.database(DB);
    let n = match side {
        "odm" => Collection::<Order>::new(&db).find(Filter::everything()).await.expect("find").len(),
        "driver" => {
            let coll = db.collection::<SerdeOrder>(Order::COLLECTION);
            let all: Vec<SerdeOrder> = coll.find(doc! {}).await.expect("find").try_collect().await.expect("read");
            all.len()
        }
        "raw_then_decode" => {
            let coll = Collection::<Order>::new(&db);
            let raws: Vec<RawDocumentBuf> = coll.raw().find(doc! {}).await.expect("find").try_collect().await.unwrap();
            let all: Vec<Order> = raws.iter().map(|r| odm::codec::decode(r)).collect::<Result<_, _>>().expect("decode");
            all.len()
        }
        other => panic!("ODM_BENCH_FIND_SIDE is one of {SIDES:?}, not `{other}`"),
    };
    println!("{n} {}", peak_kib());
    client.shutdown().await;
}

/// `ODM_BENCH_LOOP=seed|odm_read|serde_read ODM_BENCH_N=20000 MONGODB_URI=…`: fills database `bench_read` with N
/// sample orders, or reads N of them (none with `ODM_BENCH_N=0`: the same steps, on a read that matches nothing) as
/// odm does or as the driver does into the serde twin, for `scripts/read_cost.py` to count under callgrind. One
/// thread, as the baseline built outside the workspace runs.
async fn instruction_loop(side: &str) {
    let n: usize = std::env::var("ODM_BENCH_N").ok().and_then(|n| n.parse().ok()).unwrap_or(20_000);
    let uri = std::env::var("MONGODB_URI").expect("MONGODB_URI: the server read_cost.py started");
    let client = odm::mongodb::Client::with_uri_str(uri).await.expect("client");
    let db = client.database("bench_read");
    // No order has the all-zero id: the read of none sends the same commands and returns nothing.
    let none = bson::oid::ObjectId::from_bytes([0; 12]);
    let read = match side {
        "seed" => {
            db.drop().await.expect("drop");
            let coll = Collection::<Order>::new(&db);
            for start in (0..n).step_by(1000) {
                coll.insert_many((start..n.min(start + 1000)).map(order)).await.expect("seed");
            }
            n
        }
        "odm_read" => {
            let coll = Collection::<Order>::new(&db);
            let filter = if n == 0 { Order::fields().id().eq(none) } else { Filter::everything() };
            coll.find(filter).limit(n.max(1) as u64).await.expect("find").len()
        }
        "serde_read" => {
            let coll = db.collection::<SerdeOrder>(Order::COLLECTION);
            let filter = if n == 0 {
                doc! { "_id": none }
            } else {
                doc! {}
            };
            let all: Vec<SerdeOrder> =
                coll.find(filter).limit(n.max(1) as i64).await.expect("find").try_collect().await.expect("read");
            all.len()
        }
        other => panic!("ODM_BENCH_LOOP is `seed`, `odm_read` or `serde_read`, not `{other}`"),
    };
    assert_eq!(read, n, "the collection holds at least ODM_BENCH_N orders");
    client.shutdown().await;
}

fn main() {
    if let Ok(side) = std::env::var("ODM_BENCH_LOOP") {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
        return runtime.block_on(instruction_loop(&side));
    }
    tokio::runtime::Runtime::new().expect("runtime").block_on(bench());
}

async fn bench() {
    if let Ok(side) = std::env::var("ODM_BENCH_FIND_SIDE") {
        return read(&side).await;
    }
    // `cargo bench` passes `--bench`; a filter naming another bench skips this one.
    if std::env::args().skip(1).any(|a| !a.starts_with("--") && !"find".contains(a.as_str())) {
        return;
    }
    let docs = env_usize("ODM_BENCH_DOCS", 100_000);
    let rounds = env_usize("ODM_BENCH_ROUNDS", 3);
    let test_db = odm::testing::database("bench_find_seed").await;
    let client = test_db.client().clone();
    let db = client.database(DB);
    db.drop().await.expect("drop");
    let coll = Collection::<Order>::new(&db);
    for start in (0..docs).step_by(1000) {
        coll.insert_many((start..docs.min(start + 1000)).map(order)).await.expect("seed");
    }
    let bytes = odm::codec::encode(&order(0)).expect("encode").as_bytes().len();
    println!("{docs} documents of about {bytes} bytes each; peak resident memory of each read, in its own process");

    let uri = odm::testing::server().uri();
    let mut peaks: Vec<Vec<u64>> = vec![Vec::new(); SIDES.len()];
    for round in 0..rounds {
        for k in 0..SIDES.len() {
            let i = (k + round) % SIDES.len();
            let out = Command::new(std::env::current_exe().expect("this bench"))
                .env("MONGODB_URI", uri)
                .env("ODM_BENCH_FIND_SIDE", SIDES[i])
                .output()
                .expect("run a read");
            assert!(out.status.success(), "{}: {}", SIDES[i], String::from_utf8_lossy(&out.stderr));
            let text = String::from_utf8_lossy(&out.stdout);
            let mut fields = text.split_whitespace().map(|f| f.parse::<u64>().expect("number"));
            let (read, peak) = (fields.next().expect("count"), fields.next().expect("peak"));
            assert_eq!(read, docs as u64, "{} read every document", SIDES[i]);
            println!("round {round}: {:<16} peak {:>8.1} MiB", SIDES[i], peak as f64 / 1024.0);
            peaks[i].push(peak);
        }
    }
    let medians: Vec<u64> = peaks.into_iter().map(median).collect();
    let mib = |kib: u64| kib as f64 / 1024.0;
    for (side, peak) in SIDES.iter().zip(&medians) {
        println!(
            "find_memory {side:<16} median peak {:>8.1} MiB: {:.2}x the driver's, {:+.1} MiB",
            mib(*peak),
            *peak as f64 / medians[1] as f64,
            mib(*peak) - mib(medians[1])
        );
    }
    drop(db);
    test_db.close().await;
}
