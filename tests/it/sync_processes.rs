//! SchemaSync under hostile conditions: four separate processes syncing the same models at the same moment, and a
//! server killed in the middle of a sync.

use crate::support;

use odm::bson::{doc, Document};
use odm::sync::ModelSpec;
use odm::testing::ServerKind;
use odm::{index::IndexSpec, Model, SchemaSync, SyncMode};
use serde::{Deserialize, Serialize};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use support::workers;

#[derive(Model, Serialize, Deserialize, Debug, Clone)]
#[odm(collection = "order_line", closed)]
struct OrderLine {
    #[serde(rename = "o")]
    order: String,
    #[serde(rename = "s")]
    sku: String,
    #[serde(rename = "q")]
    quantity: i32,
}

/// Twelve models in one database, each with three indexes.
fn specs() -> Vec<ModelSpec> {
    (0..12)
        .map(|i| {
            let mut spec = ModelSpec::of::<OrderLine>();
            spec.collection = format!("order_line{i}");
            spec.indexes =
                vec![IndexSpec::new("idx_o", doc! { "o": 1 }), IndexSpec::new("idx_s_q", doc! { "s": 1, "q": -1 }), {
                    let mut u = IndexSpec::new("idx_o_s", doc! { "o": 1, "s": 1 });
                    u.unique = true;
                    u
                }];
            spec
        })
        .collect()
}

fn sync<'c>(client: &'c odm::mongodb::Client, db: &str) -> SchemaSync<'c> {
    specs().into_iter().fold(SchemaSync::new(client).database(db), SchemaSync::spec)
}

const WORKER_ENV: &str = "ODM_SYNC_WORKER";

/// Run as a child process by `four_processes_sync_at_once`: waits for the common start instant, then syncs.
#[tokio::test]
#[ignore = "a worker process of four_processes_sync_at_once"]
async fn sync_worker() {
    let spec = workers::worker_spec(WORKER_ENV, "four_processes_sync_at_once").await;
    let report = sync(&spec.client, &spec.db).mode(SyncMode::Apply).await.expect("concurrent sync succeeds");
    assert!(report.remaining().next().is_none(), "{report}");
    println!("worker done: {} actions", report.plan.actions.len());
}

#[tokio::test]
async fn four_processes_sync_at_once() {
    let db = odm::testing::database("sync_procs").await;
    let start = workers::start_in(2_000);
    let spec = format!("{}|{}|{start}", odm::testing::server().uri(), db.name());
    let children: Vec<Child> =
        (0..4).map(|_| workers::spawn("sync_processes::sync_worker", WORKER_ENV, spec.clone())).collect();
    for child in children {
        let out = child.wait_with_output().expect("worker");
        let text = support::shell::output_text(&out);
        assert!(out.status.success(), "worker failed:\n{text}");
        assert!(text.contains("worker done"), "the worker really ran:\n{text}");
    }
    // One correct state: every collection with exactly its indexes, and nothing left to do.
    for spec in specs() {
        let names = support::server::live_indexes(&db, &spec.collection).await;
        assert_eq!(names.len(), 4, "{}: {names:?}", spec.collection);
    }
    sync(db.client(), db.name()).mode(SyncMode::Verify).await.and_then(|r| r.require_in_sync()).expect("in sync");
}

/// A server of this test's own, on its own port and data directory, so it can be killed and restarted.
struct OwnServer {
    child: Child,
    port: u16,
}

impl OwnServer {
    fn start(port: u16, dir: &std::path::Path) -> Option<OwnServer> {
        let server = odm::testing::server();
        let program = server.program()?;
        let mut cmd = Command::new(program);
        match server.kind() {
            ServerKind::Secantus => cmd
                .args(["--host", "127.0.0.1", "--port", &port.to_string(), "--sync-on-commit", "--storage-path"])
                .arg(dir),
            ServerKind::Mongod => {
                cmd.args(["--bind_ip", "127.0.0.1", "--port", &port.to_string(), "--quiet", "--dbpath"]).arg(dir)
            }
            ServerKind::External => return None,
        };
        let child = cmd.stdout(Stdio::null()).stderr(Stdio::null()).spawn().expect("start own server");
        let deadline = Instant::now() + Duration::from_secs(60);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "own server did not start");
            std::thread::sleep(Duration::from_millis(100));
        }
        Some(OwnServer { child, port })
    }

    fn uri(&self) -> String {
        format!("mongodb://127.0.0.1:{}/?directConnection=true&serverSelectionTimeoutMS=2000", self.port)
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for OwnServer {
    fn drop(&mut self) {
        self.kill();
    }
}

#[tokio::test]
async fn server_killed_mid_sync_fails_fast_and_the_next_sync_converges() {
    let dir = std::env::temp_dir().join(format!("odm-kill-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("data dir");
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let Some(mut server) = OwnServer::start(port, &dir) else {
        eprintln!("skipped: MONGODB_URI names an external server this test cannot kill");
        return;
    };
    let client = odm::mongodb::Client::with_uri_str(server.uri()).await.expect("client");
    let lines = client.database("killdb").collection::<Document>("order_line0");
    lines.insert_many((0..100).map(|i| doc! { "o": format!("o{i}"), "s": "sku", "q": i })).await.expect("seed data");

    // Kill the server while a sync of twelve models is running.
    let sync_client = client.clone();
    let running = tokio::spawn(async move {
        let started = Instant::now();
        let result = sync(&sync_client, "killdb").mode(SyncMode::Apply).timeout(Duration::from_secs(5)).await;
        (result, started.elapsed())
    });
    tokio::time::sleep(Duration::from_millis(30)).await;
    server.kill();
    let (result, took) = running.await.expect("sync task");
    assert!(took < Duration::from_secs(8), "no hang: returned after {took:?}");
    match &result {
        Err(e) => eprintln!("sync failed after {took:?} as expected: {e}"),
        // The sync beat the kill; the restart below must still find a consistent state.
        Ok(report) => eprintln!("sync finished before the kill:\n{report}"),
    }

    // Restart on the same data: the next sync converges and no document is lost.
    let server = OwnServer::start(port, &dir).expect("restart");
    let client = odm::mongodb::Client::with_uri_str(server.uri()).await.expect("client");
    let report = sync(&client, "killdb").mode(SyncMode::Apply).await.expect("sync after restart");
    assert!(report.remaining().all(|(a, _)| matches!(a, odm::sync::plan::Action::UpdateValidator { .. })), "{report}");
    let lines = client.database("killdb").collection::<Document>("order_line0");
    assert_eq!(lines.count_documents(doc! {}).await.expect("count"), 100, "no document lost");
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}
