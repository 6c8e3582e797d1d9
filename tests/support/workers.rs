//! Child processes of a test binary, each running one ignored worker test, started together at one instant: how
//! separate replicas of an application meet the server at the same moment.

use odm::bson::doc;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Milliseconds since the Unix epoch, `delay_ms` from now: the instant every worker waits for.
pub fn start_in(delay_ms: u128) -> u128 {
    SystemTime::now().duration_since(UNIX_EPOCH).expect("after 1970").as_millis() + delay_ms
}

/// Starts this test binary again, running only the ignored test `worker` (its full path in the binary,
/// `module::test`), with `spec` in the environment variable
/// `env_var` (read back by [`worker_spec`]); its output is captured.
pub fn spawn(worker: &str, env_var: &str, spec: String) -> Child {
    let exe = std::env::current_exe().expect("test binary");
    Command::new(exe)
        .args(["--exact", worker, "--ignored", "--nocapture", "--test-threads=1"])
        .env(env_var, spec)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn worker")
}

/// The spec a worker was given as `server URI|database|start instant|…`, for the test that runs it
/// (`run_by`, named in the panic when the worker test is run by hand).
pub struct WorkerSpec {
    /// A client of the server, its connection already made.
    pub client: odm::mongodb::Client,
    /// The database the workers share.
    pub db: String,
    /// The fields after the start instant.
    pub rest: Vec<String>,
}

/// Reads the spec from `env_var`, connects, and waits for the common start instant.
pub async fn worker_spec(env_var: &str, run_by: &str) -> WorkerSpec {
    let spec = std::env::var(env_var).unwrap_or_else(|_| panic!("run by {run_by}"));
    let parts: Vec<&str> = spec.split('|').collect();
    let (uri, db, start) = (parts[0], parts[1], parts[2].parse::<u128>().expect("start instant"));
    let client = odm::mongodb::Client::with_uri_str(uri).await.expect("client");
    client.database(db).run_command(doc! { "ping": 1 }).await.expect("warm connection");
    let now = SystemTime::now().duration_since(UNIX_EPOCH).expect("after 1970").as_millis();
    tokio::time::sleep(Duration::from_millis(start.saturating_sub(now) as u64)).await;
    WorkerSpec { client, db: db.to_owned(), rest: parts[3..].iter().map(|p| (*p).to_owned()).collect() }
}
