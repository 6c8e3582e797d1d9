//! Finding, installing and starting the shared server: the `OnceLock` that holds it, the supervisor script, free
//! ports, run directories and the SecantusDB install.

use super::install::{cache_dir, display_command, find_on_path, note, run_install_step, InstallLock, Installing};
use super::server::{log_tail, server_status, ServerKind, Supervised, TestServer};
use std::ffi::OsString;
use std::fs::{self, File};
use std::io;
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// The SecantusDB release installed from PyPI when no other server is available
/// (installed as `SecantusDB==<this>`; it is a pre-release, so the pin is exact).
pub const SECANTUS_VERSION: &str = "0.7.0b3";

/// How many times a server is started on a fresh port before giving up.
const START_ATTEMPTS: u32 = 3;
/// How long a started server may take to accept connections.
const READY_TIMEOUT: Duration = Duration::from_secs(60);

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
static SERVER: OnceLock<Result<TestServer, String>> = OnceLock::new();

/// The shared server of this process, started (or installed, then started) on first use.
///
/// This blocks while the server starts (a few seconds; the first install of SecantusDB takes
/// longer). From async code prefer [`database`](crate::testing::database()), which does that on tokio's blocking pool.
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
pub(super) async fn server_async() -> &'static TestServer {
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

/// The value of an environment variable, if set and non-empty.
fn env_nonempty(name: &str) -> Option<OsString> {
    std::env::var_os(name).filter(|v| !v.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
