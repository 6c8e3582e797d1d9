//! A test-server harness: finds or installs a MongoDB-wire server for tests and examples.
//!
//! Like `mongodb-memory-server`, this module starts a server once per test process, lazily, on a
//! free `127.0.0.1` port with a temporary data directory, and hands each test its own database
//! (see [`database`]). Each test makes its own [`mongodb::Client`] (one per tokio runtime: the
//! driver's background tasks die with the runtime that created them), so nothing here shares a
//! client between tests.
//!
//! # Which server
//!
//! The first of these that applies wins:
//!
//! 1. **`MONGODB_URI`**, when set and non-empty: used as is; no process is started. Every test
//!    still gets a database of its own, named `t_<hint>_<pid>_<tag>_<n>`.
//! 2. **`mongod` on `PATH`**: started as
//!    `mongod --dbpath <tmp> --port <port> --bind_ip 127.0.0.1 --quiet`.
//! 3. **`secantusd-rs`, else `secantusd-py`, on `PATH`** ([SecantusDB], a MongoDB-wire server):
//!    started as `<server> --host 127.0.0.1 --port <port> --storage-path <tmp>`.
//! 4. Otherwise SecantusDB [`SECANTUS_VERSION`] is **installed from PyPI** into a virtual
//!    environment in the cache directory (first use only, about 150 MB) and started as in 3.
//!    This needs Python 3 with pip and venv (`python3 -m venv`; on Debian and Ubuntu the
//!    `python3-venv` package).
//!
//! [SecantusDB]: https://pypi.org/project/SecantusDB/
//!
//! # Cache directory
//!
//! `$ODM_CACHE_DIR` if set, else `$XDG_CACHE_HOME/odm`, else `$HOME/.cache/odm`. It holds the
//! virtual environment `secantusdb-<version>/`, which is complete once it contains the marker
//! file `.odm-complete`. Test binaries that start at the same moment install it only once: the
//! install runs under a lock directory `secantusdb-<version>.lock` next to it (a lock older than
//! 15 minutes is taken to be left over from a killed process and removed). Delete the virtual
//! environment to force a fresh install.
//!
//! # Environment variables
//!
//! | variable         | effect                                                                 |
//! |------------------|------------------------------------------------------------------------|
//! | `MONGODB_URI`    | use this server instead of starting one                                |
//! | `ODM_CACHE_DIR`  | where SecantusDB is installed (see above)                              |
//! | `MONGOSH`        | the mongosh executable for [`run_mongosh`] (else `mongosh` on `PATH`, else installed from npm into the cache, pinned to [`MONGOSH_VERSION`]) |
//! | `ODM_SERVER_LOG` | if set and non-empty: print the server, its URI and its log file on stderr when it starts, and keep that log after the process exits |
//!
//! # No server is left behind
//!
//! The server is not a direct child of the test process. It runs under a small `sh` supervisor
//! (in a process group of its own) whose standard input is a pipe that the test process holds
//! open for its whole life and never writes to. When the test process exits for any reason,
//! a normal exit, a panic, `SIGKILL`, the kernel closes that pipe; the supervisor sees end of
//! file, stops the server (`SIGTERM`, then `SIGKILL` after 5 seconds), kills whatever else is
//! left in its process group and removes the temporary directory
//! (`<temp dir>/odm-test-<pid>-<nanos>/`, holding `data/` and `server.log`). If the server
//! dies on its own, the supervisor exits too, removes `data/` and keeps `server.log` for
//! inspection; the next [`TestServer::client`] call then panics with the tail of that log.
//!
//! This needs a Unix-like system with `/bin/sh`.
//!
//! # Example
//!
//! ```rust,no_run
//! # async fn demo() {
//! let db = odm::testing::database("orders").await;
//! let n = db.collection::<mongodb::bson::Document>("x").count_documents(mongodb::bson::doc! {}).await.unwrap();
//! # }
//! ```

use std::collections::hash_map::RandomState;
use std::ffi::OsString;
use std::fs::{self, File};
use std::hash::{BuildHasher, Hasher};
use std::io::{self, Read, Seek, SeekFrom};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

mod install;
mod mongosh;
mod patterns;
mod server_info;

pub use mongosh::{mongosh, run_mongosh, MONGOSH_VERSION};
pub use patterns::{access_patterns, assert_access_patterns, PatternCheck};
pub use server_info::{Deployment, Product, ServerInfo};

use install::{cache_dir, display_command, find_on_path, note, run_install_step, InstallLock, Installing};
use mongodb::options::ClientOptions;
use mongodb::{Client, Database};

/// The SecantusDB release installed from PyPI when no other server is available
/// (installed as `SecantusDB==<this>`; it is a pre-release, so the pin is exact).
pub const SECANTUS_VERSION: &str = "0.7.0b3";

/// How many times a server is started on a fresh port before giving up.
const START_ATTEMPTS: u32 = 3;
/// How long a started server may take to accept connections.
const READY_TIMEOUT: Duration = Duration::from_secs(60);
/// Longest hint kept in a database name.
const MAX_HINT_LEN: usize = 20;

const INSTALL_HELP: &str = "The odm test harness installs SecantusDB from PyPI when MONGODB_URI is \
not set and none of mongod, secantusd-rs or secantusd-py is on PATH. That needs Python 3 with pip \
and venv (`python3 -m venv`; on Debian/Ubuntu the python3-venv package). Alternatively set \
MONGODB_URI to an existing MongoDB server (e.g. MONGODB_URI=mongodb://127.0.0.1:27017) or put \
mongod on PATH.";

const SECANTUS: Installing = Installing { what: "SecantusDB", help: INSTALL_HELP };

/// The supervisor, run as `sh -c SUPERVISOR odm-test-supervisor <run dir> <keep log: 0|1>
/// <server> <args>...` with the lifeline pipe as standard input and the log file as standard
/// output and error, in a process group of its own.
///
/// It starts the server in the background (a background job of a non-interactive shell reads
/// /dev/null), waits for the server to exit, and meanwhile a watcher subshell blocks reading the
/// pipe; at end of file (the test process is gone) it marks the run as stopping and stops the
/// server: TERM, then KILL after 5 s. Once the server has exited, the supervisor stops the
/// watcher, TERMs the rest of its process group (any helper the server left), removes the run
/// directory (only `data/` when the server died on its own or the log is to be kept, writing the
/// server's exit status to `server.status`), and finally KILLs its whole process group, itself
/// included, so that nothing survives.
const SUPERVISOR: &str = r#"set -u
run=$1
keep_log=$2
shift 2
exec 3<&0 </dev/null
"$@" 3<&- &
spid=$!
trap 'kill -TERM "$spid" 2>/dev/null' HUP INT TERM
(
  while read -r line; do :; done <&3
  : >"$run/.stopping"
  kill -TERM "$spid" 2>/dev/null
  n=0
  while kill -0 "$spid" 2>/dev/null; do
    if [ "$n" -ge 25 ]; then kill -KILL "$spid" 2>/dev/null; break; fi
    n=$((n + 1))
    sleep 0.2
  done
) &
wpid=$!
exec 3<&-
wait "$spid"
status=$?
while kill -0 "$spid" 2>/dev/null; do wait "$spid"; status=$?; done
kill "$wpid" 2>/dev/null
trap '' HUP INT TERM
kill -TERM "-$$" 2>/dev/null
if [ -e "$run/.stopping" ] && [ "$keep_log" = 0 ]; then
  rm -rf "$run"
else
  rm -rf "$run/data" "$run/.stopping"
  echo "$status" >"$run/server.status"
fi
kill -KILL "-$$" 2>/dev/null
"#;

/// How [`server`] found the server it uses. This says how the harness got a server, not what the server is: a
/// `MONGODB_URI` may name any kind, so code that depends on a server's behaviour asks [`ServerInfo`] (what the server
/// says of itself, through [`TestDatabase::server_info`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ServerKind {
    /// The server named by `MONGODB_URI`; this process did not start it.
    External,
    /// A `mongod` found on `PATH`, started by this process.
    Mongod,
    /// SecantusDB (`secantusd-rs` or `secantusd-py`, from `PATH` or installed into the cache
    /// directory), started by this process.
    Secantus,
}

/// The server that the tests of this process use; see [`server`].
#[derive(Debug)]
pub struct TestServer {
    uri: String,
    kind: ServerKind,
    program: Option<PathBuf>,
    process: Option<Supervised>,
}

/// A server started by this process, under its supervisor.
#[derive(Debug)]
struct Supervised {
    log: PathBuf,
    supervisor: Mutex<Child>,
    /// Never written to and never dropped (it lives in a static): the kernel closes it when
    /// this process exits, which tells the supervisor to stop the server.
    _lifeline: ChildStdin,
}

static SERVER: OnceLock<Result<TestServer, String>> = OnceLock::new();
static NEXT_DATABASE: AtomicU64 = AtomicU64::new(0);

/// The shared server of this process, started (or installed, then started) on first use.
///
/// This blocks while the server starts (a few seconds; the first install of SecantusDB takes
/// longer). From async code prefer [`database`], which does that on tokio's blocking pool.
///
/// # Panics
///
/// If no server can be found, installed or started; the message says what was tried. Every
/// later call panics with the same message.
pub fn server() -> &'static TestServer {
    match SERVER.get_or_init(start) {
        Ok(server) => server,
        Err(message) => panic!("{message}"),
    }
}

/// [`server`], with the first start moved off the async runtime's threads.
async fn server_async() -> &'static TestServer {
    if SERVER.get().is_none() {
        if let Ok(handle) = tokio::runtime::Handle::try_current() {
            // Errors and panics resurface from `server()` below, on this task.
            let _ = handle
                .spawn_blocking(|| {
                    SERVER.get_or_init(start);
                })
                .await;
        }
    }
    server()
}

impl TestServer {
    /// The connection string of this server, e.g.
    /// `mongodb://127.0.0.1:40123/?directConnection=true`.
    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// Which kind of server this is.
    pub fn kind(&self) -> ServerKind {
        self.kind
    }

    /// The server program that this process started (`None` for [`ServerKind::External`]).
    pub fn program(&self) -> Option<&Path> {
        self.program.as_deref()
    }

    /// The file that receives the server's output (`None` for [`ServerKind::External`]).
    /// It is removed when this process exits, unless `ODM_SERVER_LOG` is set.
    pub fn log_path(&self) -> Option<&Path> {
        self.process.as_ref().map(|p| p.log.as_path())
    }

    /// A new client connected to this server (make one per test, or at least per tokio
    /// runtime), with a 10 s server selection timeout and the app name `odm-tests`.
    ///
    /// # Panics
    ///
    /// If the server that this process started has exited (the message has the end of its
    /// log), or if the URI cannot be parsed.
    pub async fn client(&self) -> Client {
        self.check_running();
        let mut options = match ClientOptions::parse(self.uri.as_str()).await {
            Ok(options) => options,
            Err(e) => panic!("odm::testing: invalid connection string {:?}: {e}", self.uri),
        };
        options.server_selection_timeout = Some(Duration::from_secs(10));
        options.app_name = Some("odm-tests".to_owned());
        match Client::with_options(options) {
            Ok(client) => client,
            Err(e) => panic!("odm::testing: cannot create a client for {}: {e}", self.uri),
        }
    }

    /// Panics with the log tail if the supervised server has exited.
    fn check_running(&self) {
        let Some(process) = &self.process else {
            return;
        };
        let exited = process.supervisor.lock().unwrap_or_else(PoisonError::into_inner).try_wait();
        if let Ok(Some(_)) = exited {
            let run_dir = process.log.parent().unwrap_or(Path::new("."));
            panic!(
                "odm::testing: the {:?} test server at {} has exited{}; its log is {}:\n{}",
                self.kind,
                self.uri,
                server_status(run_dir),
                process.log.display(),
                log_tail(&process.log),
            );
        }
    }
}

/// A fresh database for one test, on [`server`]: a new client, and a database whose name is
/// unique within this process and across processes (`t_<hint>_<pid>_<tag>_<n>`, where the hint
/// is reduced to at most 20 characters of `[a-z0-9_]` and the tag is random per process).
/// The database is dropped first, so it is empty even on a long-lived `MONGODB_URI` server.
///
/// # Panics
///
/// If no server can be had (see [`server`]), or if the server does not answer.
pub async fn database(hint: &str) -> TestDatabase {
    let server = server_async().await;
    let name = database_name(hint, std::process::id(), process_tag(), NEXT_DATABASE.fetch_add(1, Ordering::Relaxed));
    let client = server.client().await;
    let db = client.database(&name);
    if let Err(e) = db.drop().await {
        panic!(
            "odm::testing: cannot prepare the test database {name:?} on the {:?} server at {}: {}",
            server.kind,
            server.uri,
            crate::server_reply::Readable(&e)
        );
    }
    TestDatabase { client, db }
}

/// One test's database and the client it was opened with; see [`database`].
///
/// It dereferences to [`mongodb::Database`].
#[derive(Debug, Clone)]
pub struct TestDatabase {
    client: Client,
    db: Database,
}

impl TestDatabase {
    /// The database.
    pub fn db(&self) -> &Database {
        &self.db
    }

    /// Closes the client: waits up to [`CLOSE_GRACE`] for its sessions and cursors to be dropped, ends its sessions
    /// on the server and closes its connections. Call it at the end of a `main` that owns the runtime: a client
    /// merely dropped there ends its sessions from a task the shutting-down runtime may no longer serve (the driver
    /// then panics in that task).
    ///
    /// A cursor or session still alive after the grace period (a stream not read to its end and not dropped, an
    /// [`odm::Session`](crate::Session) kept in a variable) would make the driver wait forever; the client is then
    /// closed without waiting for it, and the result (also printed on standard error) says so.
    pub async fn close(self) -> Closed {
        self.close_within(CLOSE_GRACE).await
    }

    /// [`close`](Self::close) with a grace period of `grace` instead of [`CLOSE_GRACE`].
    pub async fn close_within(self, grace: Duration) -> Closed {
        let TestDatabase { client, db } = self;
        drop(db);
        if tokio::time::timeout(grace, client.clone().shutdown()).await.is_ok() {
            return Closed::Cleanly;
        }
        let closed = Closed::WithoutWaiting { waited: grace };
        eprintln!("odm::testing: {closed}");
        client.shutdown().immediate(true).await;
        closed
    }

    /// What the server behind this database says it is ([`ServerInfo::of`] on this database's client).
    pub async fn server_info(&self) -> crate::error::Result<ServerInfo> {
        ServerInfo::of(&self.client).await
    }

    /// The client the database was opened with (made for this test alone).
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// The database's name.
    pub fn name(&self) -> &str {
        self.db.name()
    }
}

/// How long [`TestDatabase::close`] waits for the client's cursors and sessions to be dropped.
pub const CLOSE_GRACE: Duration = Duration::from_secs(10);

/// How [`TestDatabase::close`] ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Closed {
    /// Every cursor and session had been dropped: the client ended its sessions and closed its connections.
    Cleanly,
    /// A cursor or session of the client was still alive after `waited`: the client was closed without waiting for
    /// it (its sessions ended on the server, its connections closed; the live handle fails if used again).
    WithoutWaiting {
        /// The grace period that ran out.
        waited: Duration,
    },
}

impl std::fmt::Display for Closed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Closed::Cleanly => f.write_str("the client closed cleanly"),
            Closed::WithoutWaiting { waited } => write!(
                f,
                "closing the client waited {waited:?} for a cursor or session that is still alive (a stream not read \
                 to its end and not dropped, a find or change stream, an odm::Session or driver session held in a \
                 variable); closed it without waiting: drop such handles before close()"
            ),
        }
    }
}

impl Deref for TestDatabase {
    type Target = Database;

    fn deref(&self) -> &Database {
        &self.db
    }
}

// ---------------------------------------------------------------------------------------------
// Finding and starting the server.

/// Resolves and starts the server (the `OnceLock` initializer).
fn start() -> Result<TestServer, String> {
    if let Some(uri) = env_nonempty("MONGODB_URI") {
        let uri = uri.into_string().map_err(|uri| format!("odm::testing: MONGODB_URI is not valid UTF-8: {uri:?}"))?;
        return Ok(TestServer { uri, kind: ServerKind::External, program: None, process: None });
    }
    let (kind, program) = if let Some(mongod) = find_on_path("mongod") {
        (ServerKind::Mongod, mongod)
    } else if let Some(secantus) = find_on_path("secantusd-rs").or_else(|| find_on_path("secantusd-py")) {
        (ServerKind::Secantus, secantus)
    } else {
        (ServerKind::Secantus, install_secantus()?)
    };
    let program = std::path::absolute(&program).unwrap_or(program);
    let keep_log = env_nonempty("ODM_SERVER_LOG").is_some();
    let server = launch(kind, &program, keep_log)?;
    if keep_log {
        note(&format!(
            "started {} ({kind:?}) at {}; log: {}",
            program.display(),
            server.uri,
            server.log_path().unwrap_or(Path::new("?")).display(),
        ));
    }
    Ok(server)
}

/// The server's command-line arguments. Test commands (`configureFailPoint`) are on, as in the drivers' own test
/// suites: the server listens on loopback only, for this process's tests, which use them to make the server fail a
/// command on purpose (a commit whose outcome is unknown, a transient transaction error).
fn server_args(kind: ServerKind, data: &Path, port: u16) -> Vec<OsString> {
    let port = OsString::from(port.to_string());
    let data = data.as_os_str().to_owned();
    match kind {
        ServerKind::Mongod => vec![
            "--dbpath".into(),
            data,
            "--port".into(),
            port,
            "--bind_ip".into(),
            "127.0.0.1".into(),
            "--quiet".into(),
            "--setParameter".into(),
            "enableTestCommands=1".into(),
        ],
        ServerKind::Secantus | ServerKind::External => vec![
            "--host".into(),
            "127.0.0.1".into(),
            "--port".into(),
            port,
            "--storage-path".into(),
            data,
            "--enable-test-commands".into(),
        ],
    }
}

/// How a start attempt ended.
enum Startup {
    Ready,
    Exited,
    TimedOut,
}

/// Starts `program` under its supervisor on a free port, retrying on a new port if it exits
/// while starting (e.g. because another process took the port meanwhile).
fn launch(kind: ServerKind, program: &Path, keep_log: bool) -> Result<TestServer, String> {
    let mut failures = Vec::new();
    for attempt in 1..=START_ATTEMPTS {
        let port = free_port().map_err(|e| format!("odm::testing: cannot find a free port on 127.0.0.1: {e}"))?;
        let run_dir = create_run_dir()?;
        let log = run_dir.join("server.log");
        let args = server_args(kind, &run_dir.join("data"), port);
        let command_line = display_command(program.as_os_str(), &args);
        let (mut supervisor, lifeline) = match spawn_supervised(program, &args, &run_dir, &log, keep_log) {
            Ok(spawned) => spawned,
            Err(e) => {
                let _ = fs::remove_dir_all(&run_dir);
                return Err(format!("odm::testing: cannot run /bin/sh to supervise `{command_line}`: {e}"));
            }
        };
        match wait_ready(&mut supervisor, port) {
            Startup::Ready => {
                return Ok(TestServer {
                    uri: format!("mongodb://127.0.0.1:{port}/?directConnection=true"),
                    kind,
                    program: Some(program.to_owned()),
                    process: Some(Supervised { log, supervisor: Mutex::new(supervisor), _lifeline: lifeline }),
                });
            }
            Startup::Exited => {
                drop(lifeline);
                failures.push(format!(
                    "attempt {attempt}: `{command_line}` exited before accepting connections{}; \
                     its log:\n{}",
                    server_status(&run_dir),
                    log_tail(&log)
                ));
                let _ = fs::remove_dir_all(&run_dir);
            }
            Startup::TimedOut => {
                let tail = log_tail(&log);
                // Closing the lifeline makes the supervisor stop the server and clean up.
                drop(lifeline);
                let _ = supervisor.wait();
                let _ = fs::remove_dir_all(&run_dir);
                return Err(format!(
                    "odm::testing: `{command_line}` did not accept connections on 127.0.0.1:{port} \
                     within {} s; its log:\n{tail}",
                    READY_TIMEOUT.as_secs()
                ));
            }
        }
    }
    Err(format!(
        "odm::testing: the {kind:?} server {} failed to start {START_ATTEMPTS} times:\n{}",
        program.display(),
        failures.join("\n")
    ))
}

/// Starts `sh` running [`SUPERVISOR`] for `program args`; returns it and the lifeline pipe.
fn spawn_supervised(
    program: &Path,
    args: &[OsString],
    run_dir: &Path,
    log: &Path,
    keep_log: bool,
) -> io::Result<(Child, ChildStdin)> {
    let out = File::create(log)?;
    let err = out.try_clone()?;
    let shell = if Path::new("/bin/sh").exists() { "/bin/sh" } else { "sh" };
    let mut command = Command::new(shell);
    command
        .arg("-c")
        .arg(SUPERVISOR)
        .arg("odm-test-supervisor")
        .arg(run_dir)
        .arg(if keep_log { "1" } else { "0" })
        .arg(program)
        .args(args)
        .current_dir(run_dir)
        .stdin(Stdio::piped())
        .stdout(out)
        .stderr(err);
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        // Keeps terminal signals (Ctrl-C) away from the supervisor, which must outlive this
        // process, and lets the supervisor kill its whole group at the end.
        command.process_group(0);
    }
    let mut child = command.spawn()?;
    match child.stdin.take() {
        Some(stdin) => Ok((child, stdin)),
        None => Err(io::Error::other("no stdin pipe")),
    }
}

/// Waits until `port` accepts connections, the supervisor exits, or [`READY_TIMEOUT`] passes.
fn wait_ready(supervisor: &mut Child, port: u16) -> Startup {
    let address = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    let deadline = Instant::now() + READY_TIMEOUT;
    loop {
        if !matches!(supervisor.try_wait(), Ok(None)) {
            return Startup::Exited;
        }
        if TcpStream::connect_timeout(&address, Duration::from_millis(500)).is_ok() {
            // Whoever accepted, make sure it is still our server that is running.
            std::thread::sleep(Duration::from_millis(50));
            return match supervisor.try_wait() {
                Ok(None) => Startup::Ready,
                _ => Startup::Exited,
            };
        }
        if Instant::now() >= deadline {
            return Startup::TimedOut;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A port on 127.0.0.1 that was free a moment ago.
fn free_port() -> io::Result<u16> {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))?;
    Ok(listener.local_addr()?.port())
}

/// Creates `<temp dir>/odm-test-<pid>-<nanos>/` and its `data/`; returns it as an absolute path.
fn create_run_dir() -> Result<PathBuf, String> {
    let base = std::env::temp_dir();
    let mut last_error = None;
    for _ in 0..100 {
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        let dir = base.join(format!("odm-test-{}-{nanos}", std::process::id()));
        match fs::create_dir(&dir) {
            Ok(()) => {
                let dir = fs::canonicalize(&dir).unwrap_or(dir);
                return match fs::create_dir(dir.join("data")) {
                    Ok(()) => Ok(dir),
                    Err(e) => {
                        let _ = fs::remove_dir_all(&dir);
                        Err(format!("odm::testing: cannot create {}: {e}", dir.join("data").display()))
                    }
                };
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last_error = Some(e),
            Err(e) => return Err(format!("odm::testing: cannot create a directory in {}: {e}", base.display())),
        }
    }
    Err(format!(
        "odm::testing: cannot create a directory in {}: {}",
        base.display(),
        last_error.map_or_else(String::new, |e| e.to_string())
    ))
}

/// ` (exit status N)` from the `server.status` the supervisor leaves when the server dies.
fn server_status(run_dir: &Path) -> String {
    match fs::read_to_string(run_dir.join("server.status")) {
        Ok(status) if !status.trim().is_empty() => format!(" (exit status {})", status.trim()),
        _ => String::new(),
    }
}

/// The last lines of a log file, indented, for an error message.
fn log_tail(path: &Path) -> String {
    const MAX_BYTES: u64 = 8 * 1024;
    const MAX_LINES: usize = 40;
    let read = || -> io::Result<String> {
        let mut file = File::open(path)?;
        let len = file.metadata()?.len();
        file.seek(SeekFrom::Start(len.saturating_sub(MAX_BYTES)))?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)?;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    };
    match read() {
        Ok(text) if text.trim().is_empty() => "    (empty)".to_owned(),
        Ok(text) => {
            let lines: Vec<&str> = text.lines().collect();
            let start = lines.len().saturating_sub(MAX_LINES);
            lines[start..].iter().map(|line| format!("    {line}")).collect::<Vec<_>>().join("\n")
        }
        Err(e) => format!("    (cannot read {}: {e})", path.display()),
    }
}

// ---------------------------------------------------------------------------------------------
// Installing SecantusDB.

/// Installs SecantusDB [`SECANTUS_VERSION`] into the cache directory, unless it is there
/// already; returns the path of `secantusd-py`.
fn install_secantus() -> Result<PathBuf, String> {
    let cache = cache_dir();
    let venv = cache.join(format!("secantusdb-{SECANTUS_VERSION}"));
    let bin = venv.join("bin");
    let server = bin.join("secantusd-py");
    let marker = venv.join(".odm-complete");
    let installed = || server.is_file() && marker.is_file();
    if installed() {
        return Ok(server);
    }
    fs::create_dir_all(&cache).map_err(|e| {
        format!("odm::testing: cannot create the cache directory {}: {e}\n{INSTALL_HELP}", cache.display())
    })?;
    let _lock = InstallLock::acquire(cache.join(format!("secantusdb-{SECANTUS_VERSION}.lock")), &SECANTUS)?;
    if installed() {
        // Another process installed it while this one waited for the lock.
        return Ok(server);
    }
    if venv.exists() {
        fs::remove_dir_all(&venv)
            .map_err(|e| format!("odm::testing: cannot remove the incomplete install {}: {e}", venv.display()))?;
    }
    let python = find_on_path("python3").or_else(|| find_on_path("python")).ok_or_else(|| {
        format!(
            "odm::testing: cannot install SecantusDB {SECANTUS_VERSION}: neither python3 \
                 nor python is on PATH.\n{INSTALL_HELP}"
        )
    })?;
    note(&format!("installing SecantusDB=={SECANTUS_VERSION} into {} (first use only, about 150 MB)", venv.display()));
    let mut make_venv = Command::new(&python);
    make_venv.arg("-m").arg("venv").arg(&venv);
    run_install_step(&mut make_venv, &SECANTUS)?;
    let mut pip_install = Command::new(bin.join("pip"));
    pip_install
        .args(["install", "--disable-pip-version-check", "-q"])
        .arg(format!("SecantusDB=={SECANTUS_VERSION}"))
        .env("PIP_NO_INPUT", "1");
    run_install_step(&mut pip_install, &SECANTUS)?;
    if !server.is_file() {
        return Err(format!(
            "odm::testing: installed SecantusDB=={SECANTUS_VERSION} into {}, but it has no {}.\n\
             {INSTALL_HELP}",
            venv.display(),
            server.display()
        ));
    }
    fs::write(&marker, format!("SecantusDB=={SECANTUS_VERSION}\n"))
        .map_err(|e| format!("odm::testing: cannot write {}: {e}\n{INSTALL_HELP}", marker.display()))?;
    note("SecantusDB installed");
    Ok(server)
}

// ---------------------------------------------------------------------------------------------
// Small helpers.

/// A database name `t_<hint>_<pid>_<tag>_<n>`: only `[a-z0-9_]`, shorter than 64 bytes.
fn database_name(hint: &str, pid: u32, tag: &str, counter: u64) -> String {
    format!("t_{}_{pid}_{tag}_{counter}", sanitize_hint(hint))
}

/// The hint lowercased, anything outside `[a-z0-9_]` replaced by `_`, cut to 20 characters;
/// `db` if that leaves nothing.
fn sanitize_hint(hint: &str) -> String {
    let cleaned: String = hint
        .chars()
        .map(|c| {
            let c = c.to_ascii_lowercase();
            if c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(MAX_HINT_LEN)
        .collect();
    if cleaned.is_empty() {
        "db".to_owned()
    } else {
        cleaned
    }
}

/// Four random base-36 characters, fixed for this process: with the pid, they keep database
/// names apart across processes and machines sharing one `MONGODB_URI` server.
fn process_tag() -> &'static str {
    static TAG: OnceLock<String> = OnceLock::new();
    TAG.get_or_init(|| {
        let mut hasher = RandomState::new().build_hasher();
        hasher.write_u32(std::process::id());
        hasher.write_u128(SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos()));
        base36(hasher.finish(), 4)
    })
}

/// The lowest `width` base-36 digits of `n`.
fn base36(mut n: u64, width: usize) -> String {
    const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut out = vec![b'0'; width];
    for slot in out.iter_mut().rev() {
        *slot = DIGITS[(n % 36) as usize];
        n /= 36;
    }
    String::from_utf8(out).unwrap_or_default()
}

/// The value of an environment variable, if set and non-empty.
fn env_nonempty(name: &str) -> Option<OsString> {
    std::env::var_os(name).filter(|v| !v.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hint_is_sanitized() {
        assert_eq!(sanitize_hint("Orders"), "orders");
        assert_eq!(sanitize_hint("a-b.c d/é$"), "a_b_c_d___");
        assert_eq!(sanitize_hint("snake_case_9"), "snake_case_9");
        assert_eq!(sanitize_hint(""), "db");
        assert_eq!(sanitize_hint("a_very_long_hint_that_goes_on_and_on"), "a_very_long_hint_tha");
        assert_eq!(sanitize_hint(&"ß".repeat(30)).len(), MAX_HINT_LEN);
    }

    #[test]
    fn database_names_are_valid_and_distinct() {
        let longest = database_name(&"x".repeat(100), u32::MAX, "zzzz", u64::MAX);
        assert!(longest.len() < 64, "{longest} is {} bytes", longest.len());
        for name in [longest.as_str(), &database_name("Order Items!", 42, process_tag(), 7)] {
            assert!(name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'), "{name}");
        }
        assert_eq!(database_name("Orders", 42, "ab12", 7), "t_orders_42_ab12_7");
        assert_ne!(database_name("x", 1, "aaaa", 0), database_name("x", 1, "aaaa", 1));
        assert_ne!(database_name("x", 1, "aaaa", 0), database_name("x", 2, "aaaa", 0));
    }

    #[test]
    fn process_tag_is_stable_base36() {
        let tag = process_tag();
        assert_eq!(tag.len(), 4);
        assert!(tag.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()));
        assert_eq!(process_tag(), tag);
        assert_eq!(base36(0, 4), "0000");
        assert_eq!(base36(35, 4), "000z");
        assert_eq!(base36(36, 4), "0010");
        assert_eq!(base36(36u64.pow(4) + 1, 4), "0001");
    }

    #[test]
    fn server_args_follow_the_kind() {
        let data = Path::new("/tmp/run/data");
        let strings =
            |kind| server_args(kind, data, 4242).into_iter().map(|a| a.into_string().unwrap()).collect::<Vec<_>>();
        assert_eq!(
            strings(ServerKind::Mongod),
            [
                "--dbpath",
                "/tmp/run/data",
                "--port",
                "4242",
                "--bind_ip",
                "127.0.0.1",
                "--quiet",
                "--setParameter",
                "enableTestCommands=1"
            ]
        );
        assert_eq!(
            strings(ServerKind::Secantus),
            ["--host", "127.0.0.1", "--port", "4242", "--storage-path", "/tmp/run/data", "--enable-test-commands"]
        );
    }

    #[test]
    fn log_tail_keeps_the_last_lines() {
        let path = std::env::temp_dir().join(format!("odm-log-test-{}-{}.log", std::process::id(), process_tag()));
        let text: String = (0..100).map(|i| format!("line {i}\n")).collect();
        fs::write(&path, text).unwrap();
        let tail = log_tail(&path);
        fs::remove_file(&path).unwrap();
        assert!(tail.ends_with("    line 99"), "{tail}");
        assert!(!tail.contains("line 59\n"), "{tail}");
        assert_eq!(tail.lines().count(), 40);
        assert!(log_tail(&path).contains("cannot read"));
    }
}
