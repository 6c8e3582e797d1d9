//! Steady-state startup sync of 100 models (every collection with a validator and two indexes), in one run on one
//! server:
//!
//! 1. side by side, in rounds of alternating batches so all sides see the same load on a shared machine (each round
//!    starts with the next side in turn): odm's plan; the same reads written by hand with the raw driver (one
//!    filtered `listCollections`, then the `listIndexes` eight at a time, as odm sends them), for odm's own
//!    overhead; and Mongoose 9 (target: odm ≤ 1.0× `mongoose.syncIndexes()`, although Mongoose does not read
//!    validators), through the peer `benches/mongoose/sync.mjs`, which defines the same 100 models and is driven
//!    over stdin. `main` prints each side's min and median and odm's ratios to it before criterion's groups;
//! 2. criterion: odm's plan and the raw-driver sweep.
//!
//! Run with `cargo bench -p odm-tests --bench sync` (starts the embedded test server, or uses `MONGODB_URI`). The
//! Mongoose side runs when `npm ci --prefix tests/benches/mongoose` has installed the peer and `node` is on `PATH`;
//! `ODM_BENCH_MONGOOSE=1` makes it required (and installs the peer if needed), `ODM_BENCH_MONGOOSE=0` skips it.

use criterion::Criterion;
use futures_util::{stream, StreamExt, TryStreamExt};
use odm::bson::{doc, Document};
use odm::mongodb::Client;
use odm::sync::ModelSpec;
use odm::{index::IndexSpec, Model, SchemaSync};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdout, Command, Stdio};
use std::time::Instant;

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "bench_item", closed)]
struct Item {
    #[serde(rename = "n")]
    name: String,
    #[serde(rename = "p")]
    price: f64,
    #[serde(rename = "at")]
    created: odm::bson::DateTime,
}

const MODELS: usize = 100;
/// Alternating rounds of the side-by-side comparison, and syncs per side in each round.
const ROUNDS: usize = 10;
const PER_ROUND: usize = 10;

fn specs() -> Vec<ModelSpec> {
    (0..MODELS)
        .map(|i| {
            let mut spec = ModelSpec::of::<Item>();
            spec.collection = format!("bench_item{i}");
            let mut ttl = IndexSpec::new("idx_at", doc! { "at": 1 });
            ttl.expire_after_seconds = Some(86_400);
            spec.indexes = vec![IndexSpec::new("idx_n_p", doc! { "n": 1, "p": -1 }), ttl];
            spec
        })
        .collect()
}

/// The bench's database, in sync with the 100 models.
struct Setup {
    client: Client,
    db: String,
    specs: Vec<ModelSpec>,
}

impl Setup {
    async fn new() -> Self {
        let db = odm::testing::database("bench_sync").await;
        let client = db.client().clone();
        let specs = specs();
        let report = specs.iter().cloned().fold(SchemaSync::new(&client).database(db.name()), SchemaSync::spec).await;
        assert!(report.expect("setup").is_in_sync());
        Setup { client, db: db.name().to_owned(), specs }
    }

    /// One steady-state sync plan, as an application's startup would run it.
    async fn odm_plan(&self) {
        let sync = self.specs.iter().cloned().fold(SchemaSync::new(&self.client).database(&self.db), SchemaSync::spec);
        assert!(sync.plan().await.expect("plan").actions.is_empty());
    }

    /// The reads odm's plan sends, by hand with the raw driver.
    async fn raw_sweep(&self) {
        let database = self.client.database(&self.db);
        let names: Vec<&str> = self.specs.iter().map(|s| s.collection.as_str()).collect();
        let colls = database.list_collections().filter(doc! { "name": { "$in": &names } }).await.expect("list");
        assert_eq!(documents(colls).await.len(), MODELS);
        let read = |name: &str| {
            let coll = database.collection::<Document>(name);
            async move { documents(coll.list_indexes().await.expect("indexes")).await.len() }
        };
        let counts: Vec<usize> = stream::iter(names.iter().map(|n| read(n))).buffer_unordered(8).collect().await;
        assert!(counts.iter().all(|&n| n == 3));
    }
}

/// A cursor's results as raw documents.
async fn documents<T: Send + std::marker::Sync>(cursor: odm::mongodb::Cursor<T>) -> Vec<Document> {
    cursor.with_type::<Document>().try_collect().await.expect("read")
}

/// The Mongoose peer in `--serve` mode: an iteration count per line in, timings out.
struct Peer {
    child: Child,
    stdout: BufReader<ChildStdout>,
}

impl Peer {
    /// Starts the peer when it is installed (or `ODM_BENCH_MONGOOSE=1` asks for it); `None`, with a note, otherwise.
    fn start(uri: &str, db: &str) -> Option<Peer> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches").join("mongoose");
        let wanted = std::env::var("ODM_BENCH_MONGOOSE").unwrap_or_default();
        if wanted == "0" {
            return None;
        }
        let required = wanted == "1";
        if !dir.join("node_modules").join("mongoose").is_dir() {
            if !required {
                eprintln!(
                    "note: Mongoose side skipped: run `npm ci --prefix tests/benches/mongoose` (or set \
                     ODM_BENCH_MONGOOSE=1) to compare with Mongoose"
                );
                return None;
            }
            install(&dir);
        }
        let spawned = Command::new("node")
            .arg(dir.join("sync.mjs"))
            .args([uri, db, "--serve"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn();
        let mut child = match spawned {
            Ok(child) => child,
            Err(e) if !required => {
                eprintln!("note: Mongoose side skipped: cannot run `node`: {e}");
                return None;
            }
            Err(e) => panic!("ODM_BENCH_MONGOOSE=1 but `node` cannot be run: {e}"),
        };
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        Some(Peer { child, stdout })
    }

    /// Runs `n` steady-state syncs of each Mongoose variant; the times in ms by variant.
    fn batch(&mut self, n: usize) -> Vec<(String, Vec<f64>)> {
        let stdin = self.child.stdin.as_mut().expect("piped stdin");
        writeln!(stdin, "{n}").and_then(|()| stdin.flush()).expect("write to the Mongoose peer");
        let mut variants = Vec::new();
        loop {
            let mut line = String::new();
            let read = self.stdout.read_line(&mut line).expect("read from the Mongoose peer");
            assert!(read > 0, "the Mongoose peer exited (its error is above)");
            if line.trim() == "mongoose_batch_end" {
                return variants;
            }
            let field = |key: &str| line.split_whitespace().find_map(|f| f.strip_prefix(key)).unwrap_or_default();
            let times = field("times_ms=").split(',').map(|t| t.parse().expect("a time in ms")).collect();
            variants.push((field("variant=").to_owned(), times));
        }
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        // Closing its stdin ends the peer's loop; it then disconnects and exits.
        drop(self.child.stdin.take());
        let _ = self.child.wait();
    }
}

fn install(dir: &Path) {
    eprintln!("installing the Mongoose peer: npm ci --prefix {}", dir.display());
    let status = Command::new("npm").args(["ci", "--no-audit", "--no-fund", "--prefix"]).arg(dir).status();
    match status {
        Ok(s) if s.success() => {}
        Ok(s) => panic!("`npm ci --prefix {}` failed: {s}", dir.display()),
        Err(e) => panic!("ODM_BENCH_MONGOOSE=1 but `npm` cannot be run: {e}"),
    }
}

/// Min and median.
fn summary(times: &[f64]) -> (f64, f64) {
    let mut sorted = times.to_vec();
    sorted.sort_by(f64::total_cmp);
    (sorted[0], sorted[sorted.len() / 2])
}

/// Times `PER_ROUND` runs of `f`, in ms.
fn batch<F: std::future::Future<Output = ()>>(rt: &tokio::runtime::Runtime, mut f: impl FnMut() -> F) -> Vec<f64> {
    rt.block_on(async {
        let mut times = Vec::with_capacity(PER_ROUND);
        for _ in 0..PER_ROUND {
            let start = Instant::now();
            f().await;
            times.push(start.elapsed().as_secs_f64() * 1e3);
        }
        times
    })
}

/// Rounds of batches — odm's plan, the raw-driver sweep and, when there is a peer, the Mongoose syncs — each round
/// starting with the next side in turn. Prints one machine-readable line per side with odm's ratio to it.
fn side_by_side(rt: &tokio::runtime::Runtime, setup: &Setup, mut peer: Option<Peer>) {
    batch(rt, || setup.odm_plan()); // warm-up (the peer warms up on its own)
    batch(rt, || setup.raw_sweep());
    let mut odm = Vec::new();
    let mut others: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    let mut round_ratios: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for round in 0..ROUNDS {
        let (mut ours, mut theirs) = (Vec::new(), Vec::new());
        for side in (0..3).map(|step| (round + step) % 3) {
            match (side, peer.as_mut()) {
                (0, _) => ours = batch(rt, || setup.odm_plan()),
                (1, _) => theirs.push(("raw_driver_sweep".to_owned(), batch(rt, || setup.raw_sweep()))),
                (_, Some(peer)) => {
                    let variants = peer.batch(PER_ROUND);
                    theirs.extend(variants.into_iter().map(|(variant, times)| (format!("mongoose_{variant}"), times)));
                }
                (_, None) => {}
            }
        }
        for (side, times) in theirs {
            round_ratios.entry(side.clone()).or_default().push(summary(&ours).1 / summary(&times).1);
            others.entry(side).or_default().extend(times);
        }
        odm.extend(ours);
    }
    let (odm_min, odm_median) = summary(&odm);
    println!("sync_side_by_side side=odm syncs={} min_ms={odm_min:.2} median_ms={odm_median:.2}", odm.len());
    for (side, times) in &others {
        let (min, median) = summary(times);
        let rounds = summary(&round_ratios[side]).1;
        println!(
            "sync_side_by_side side={side} syncs={} min_ms={min:.2} median_ms={median:.2} ratio_min={:.2} \
             ratio_median={:.2} ratio_median_of_rounds={rounds:.2}",
            times.len(),
            odm_min / min,
            odm_median / median,
        );
    }
}

fn main() {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let setup = rt.block_on(Setup::new());
    side_by_side(&rt, &setup, Peer::start(odm::testing::server().uri(), &setup.db));

    let mut c = Criterion::default().configure_from_args();
    let mut group = c.benchmark_group("steady_state_sync_100_models");
    group.sample_size(20);
    group.bench_function("odm_sync", |b| b.to_async(&rt).iter(|| setup.odm_plan()));
    group.bench_function("raw_driver_sweep", |b| b.to_async(&rt).iter(|| setup.raw_sweep()));
    group.finish();
    c.final_summary();
}
