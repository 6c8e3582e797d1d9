//! Introspecting and pulling a large collection: `Introspect` reading every document into its survey, and `Pull`
//! writing the model from it, against a plain driver cursor reading the same raw documents (time), and their peak
//! memory at 50,000 and at 100,000 documents (flat: the survey's size does not grow with the documents).
//!
//! Run with `cargo bench -p odm-tests --bench introspect` (starts the embedded test server, or uses `MONGODB_URI`);
//! `ODM_BENCH_DOCS` and `ODM_BENCH_ROUNDS` change the size (defaults 100000 and 5). The bench seeds two collections
//! (all the documents, and half of them), then runs each read in a fresh process of its own (this binary again, with
//! `ODM_BENCH_INTROSPECT_SIDE` set), which prints the documents read, its peak resident memory (`VmHWM`) and the read's
//! wall time; the sides alternate and the median of each is compared.

#[path = "../support/median.rs"]
mod median;
#[path = "../support/process.rs"]
mod process;
mod sample;

use futures_util::TryStreamExt;
use median::median;
use odm::bson::{self, doc, RawDocumentBuf};
use odm::introspect::Introspect;
use odm::pull::Pull;
use odm::{Collection, Model};
use process::{env_usize, peak_kib};
use sample::Order;
use std::process::Command;
use std::time::Instant;

/// The database the child processes read (on the parent's server).
const DB: &str = "bench_introspect";
/// The collection holding half the documents.
const HALF: &str = "bench_half";

/// The sides, each read in a process of its own: the survey of every document and the plain cursor over the same
/// documents, then both over half as many (memory that grows with the documents shows between the two sizes).
const SIDES: [&str; 6] = ["introspect", "driver", "introspect_half", "driver_half", "pull", "pull_half"];

fn order(i: usize) -> Order {
    Order { number: format!("20180927001259{i:07}"), ..sample::order() }
}

/// One read, as `side` reads it; prints `<documents> <peak KiB> <microseconds>`.
async fn read(side: &str) {
    let client = odm::mongodb::Client::with_uri_str(std::env::var("MONGODB_URI").expect("set by the parent"))
        .await
        .expect("client");
    let db = client.database(DB);
    let started = Instant::now();
    let n = match side {
        "introspect" | "introspect_half" => {
            let name = if side == "introspect" { Order::COLLECTION } else { HALF };
            let found = Introspect::new(&db).collections([name]).read_all_up_to(u64::MAX).await.expect("introspect");
            found.collections[0].shape.documents
        }
        "pull" | "pull_half" => {
            let name = if side == "pull" { Order::COLLECTION } else { HALF };
            let pulled = Pull::new(&db).collections([name]).read_all_up_to(u64::MAX).await.expect("pull");
            assert!(pulled.models[0].source.contains("#[derive(Model"), "a model was written");
            pulled.models[0].documents
        }
        "driver" | "driver_half" => {
            let coll = db.collection::<RawDocumentBuf>(if side == "driver" { Order::COLLECTION } else { HALF });
            let mut cursor = coll.find(doc! {}).await.expect("find");
            let mut n = 0;
            while cursor.try_next().await.expect("read").is_some() {
                n += 1;
            }
            n
        }
        other => panic!("ODM_BENCH_INTROSPECT_SIDE is one of {SIDES:?}, not `{other}`"),
    };
    let micros = started.elapsed().as_micros();
    println!("{n} {} {micros}", peak_kib());
    client.shutdown().await;
}

#[tokio::main]
async fn main() {
    if let Ok(side) = std::env::var("ODM_BENCH_INTROSPECT_SIDE") {
        return read(&side).await;
    }
    // `cargo bench` passes `--bench`; a filter naming another bench skips this one.
    if std::env::args().skip(1).any(|a| !a.starts_with("--") && !"introspect".contains(a.as_str())) {
        return;
    }
    let docs = env_usize("ODM_BENCH_DOCS", 100_000);
    let rounds = env_usize("ODM_BENCH_ROUNDS", 5);
    let test_db = odm::testing::database("bench_introspect_seed").await;
    let client = test_db.client().clone();
    let db = client.database(DB);
    db.drop().await.expect("drop");
    let (all, half) = (Collection::<Order>::new(&db), db.collection::<Order>(HALF));
    for start in (0..docs).step_by(1000) {
        let batch: Vec<Order> = (start..docs.min(start + 1000)).map(order).collect();
        all.insert_many(&batch).await.expect("seed");
        if start < docs / 2 {
            half.insert_many(&batch[..batch.len().min(docs / 2 - start)]).await.expect("seed half");
        }
    }
    let bytes = odm::codec::encode(&order(0)).expect("encode").as_bytes().len();
    println!(
        "{docs} documents of about {bytes} bytes each (and {} in a second collection); each read in its own process",
        docs / 2
    );

    let uri = odm::testing::server().uri();
    let (mut peaks, mut times): (Vec<Vec<u64>>, Vec<Vec<u64>>) =
        (vec![Vec::new(); SIDES.len()], vec![Vec::new(); SIDES.len()]);
    for round in 0..rounds {
        for k in 0..SIDES.len() {
            let i = (k + round) % SIDES.len();
            let out = Command::new(std::env::current_exe().expect("this bench"))
                .env("MONGODB_URI", uri)
                .env("ODM_BENCH_INTROSPECT_SIDE", SIDES[i])
                .output()
                .expect("run a read");
            assert!(out.status.success(), "{}: {}", SIDES[i], String::from_utf8_lossy(&out.stderr));
            let text = String::from_utf8_lossy(&out.stdout);
            let mut fields = text.split_whitespace().map(|f| f.parse::<u64>().expect("number"));
            let (read, peak, micros) = (fields.next().unwrap(), fields.next().unwrap(), fields.next().unwrap());
            let expected = if SIDES[i].ends_with("_half") { docs / 2 } else { docs };
            assert_eq!(read, expected as u64, "{} read every document", SIDES[i]);
            println!(
                "round {round}: {:<16} {:>8.1} ms, peak {:>7.1} MiB",
                SIDES[i],
                micros as f64 / 1000.0,
                peak as f64 / 1024.0
            );
            peaks[i].push(peak);
            times[i].push(micros);
        }
    }
    let (peaks, times): (Vec<u64>, Vec<u64>) =
        (peaks.into_iter().map(median).collect(), times.into_iter().map(median).collect());
    println!(
        "introspect_time  median {:.1} ms against the driver's cursor {:.1} ms: {:.2}x",
        times[0] as f64 / 1000.0,
        times[1] as f64 / 1000.0,
        times[0] as f64 / times[1] as f64
    );
    let mib = |kib: u64| kib as f64 / 1024.0;
    println!(
        "introspect_memory median peak {:.1} MiB at {docs} documents, {:.1} MiB at {}; the driver's cursor {:.1} and {:.1} MiB: \
         the survey adds {:+.1} MiB at {docs}, {:+.1} MiB at {}",
        mib(peaks[0]),
        mib(peaks[2]),
        docs / 2,
        mib(peaks[1]),
        mib(peaks[3]),
        mib(peaks[0]) - mib(peaks[1]),
        mib(peaks[2]) - mib(peaks[3]),
        docs / 2
    );
    println!(
        "pull_time        median {:.1} ms against the driver's cursor {:.1} ms: {:.2}x; peak {:.1} MiB at {docs} documents, \
         {:.1} MiB at {}: {:+.1} and {:+.1} MiB over the cursor",
        times[4] as f64 / 1000.0,
        times[1] as f64 / 1000.0,
        times[4] as f64 / times[1] as f64,
        mib(peaks[4]),
        mib(peaks[5]),
        docs / 2,
        mib(peaks[4]) - mib(peaks[1]),
        mib(peaks[5]) - mib(peaks[3]),
    );
    drop(db);
    test_db.close().await;
}
