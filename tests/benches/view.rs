//! Reading three fields of fifty-field documents: the bytes the server sends for a view (`find(…).view::<WideRow>()`)
//! against the same read with a hand-written projection document through the driver, and against reading the whole
//! documents; and each read's wall time (median of the rounds, the sides in rotating order).
//!
//! Run with `cargo bench -p odm-tests --bench view` (starts the embedded test server, or uses `MONGODB_URI`);
//! `ODM_BENCH_DOCS` and `ODM_BENCH_ROUNDS` change the size (defaults 20000 and 5). The bytes are the replies of the
//! `find` and `getMore` commands as the driver's command monitoring reports them, documents and cursor fields
//! together. The decode of the view itself is counted in instructions by `scripts/decode_cost.py`.

// Shared with the tests, which use more of it.
#[allow(dead_code)]
#[path = "../support/commands.rs"]
mod commands;
#[path = "../support/median.rs"]
mod median;
#[allow(dead_code)]
#[path = "../support/process.rs"]
mod process;
mod sample;

use futures_util::TryStreamExt;
use median::median;
use odm::bson::{self, doc, Document};
use odm::{Collection, Filter, Model};
use process::env_usize;
use sample::wide::{wide, Wide, WideRow};
use sample::wide_row::SerdeWideRow;
use std::time::Instant;

/// The sides, in the order the figures are printed.
const SIDES: [&str; 3] = ["view", "hand_projection", "whole"];

/// Reads every document as `side` does; returns how many.
async fn read(side: &str, db: &odm::mongodb::Database) -> usize {
    match side {
        "view" => Collection::<Wide>::new(db).find(Filter::everything()).view::<WideRow>().await.expect("find").len(),
        "hand_projection" => {
            let coll = db.collection::<SerdeWideRow>(Wide::COLLECTION);
            let cursor = coll.find(doc! {}).projection(doc! { "nm": 1, "am": 1, "at": 1 }).await.expect("find");
            let rows: Vec<SerdeWideRow> = cursor.try_collect().await.expect("read");
            rows.len()
        }
        "whole" => Collection::<Wide>::new(db).find(Filter::everything()).await.expect("find").len(),
        other => panic!("no side `{other}`"),
    }
}

/// The bytes of the `find` and `getMore` replies recorded since `from`.
fn reply_bytes(seen: &commands::Recorded, from: usize) -> usize {
    let replies = seen.replies();
    let size = |d: &Document| bson::serialize_to_vec(d).expect("encode").len();
    replies[from..].iter().filter(|(name, _)| name == "find" || name == "getMore").map(|(_, r)| size(r)).sum()
}

#[tokio::main]
async fn main() {
    // `cargo bench` passes `--bench`; a filter naming another bench skips this one.
    if std::env::args().skip(1).any(|a| !a.starts_with("--") && !"view".contains(a.as_str())) {
        return;
    }
    let docs = env_usize("ODM_BENCH_DOCS", 20_000);
    let rounds = env_usize("ODM_BENCH_ROUNDS", 5);
    let test_db = odm::testing::database("bench_view").await;
    let seed = Collection::<Wide>::new(&test_db);
    for start in (0..docs).step_by(1000) {
        seed.insert_many((start..docs.min(start + 1000)).map(wide)).await.expect("seed");
    }
    let whole = odm::codec::encode(&wide(0)).expect("encode").as_bytes().len();
    println!("{docs} documents of 50 fields, about {whole} bytes each; the view reads 3 of them");
    let (client, seen) = commands::recording_client().await;
    let db = client.database(test_db.name());
    let mut bytes = [0usize; SIDES.len()];
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); SIDES.len()];
    for round in 0..rounds {
        for k in 0..SIDES.len() {
            let i = (k + round) % SIDES.len();
            let from = seen.replies().len();
            let start = Instant::now();
            assert_eq!(read(SIDES[i], &db).await, docs, "{} read every document", SIDES[i]);
            times[i].push(start.elapsed().as_secs_f64());
            bytes[i] = reply_bytes(&seen, from);
        }
    }
    let hand = SIDES.iter().position(|s| *s == "hand_projection").expect("the hand-written side");
    let hand_time = median(times[hand].clone());
    for (i, side) in SIDES.iter().enumerate() {
        let time = median(times[i].clone());
        println!(
            "view_read {side:<16} {:>11} bytes received ({:.3}x the hand-written projection's), median {:>7.1} ms \
             ({:.2}x)",
            bytes[i],
            bytes[i] as f64 / bytes[hand] as f64,
            time * 1000.0,
            time / hand_time
        );
    }
    drop(db);
    client.shutdown().await;
    test_db.close().await;
}
