//! The server the tests of this process use: its kind, URI and program, clients to it, and what its supervisor and
//! log say when it has exited.

use mongodb::options::ClientOptions;
use mongodb::Client;
use std::fs::{self, File};
use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

/// How [`server`] found the server it uses. This says how the harness got a server, not what the server is: a
/// `MONGODB_URI` may name any kind, so code that depends on a server's behaviour asks [`ServerInfo`] (what the server
/// says of itself, through [`TestDatabase::server_info`]).
///
/// [`server`]: crate::testing::server()
/// [`ServerInfo`]: crate::testing::ServerInfo
/// [`TestDatabase::server_info`]: crate::testing::TestDatabase::server_info
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

/// The server that the tests of this process use; see [`server`](crate::testing::server()).
#[derive(Debug)]
pub struct TestServer {
    pub(super) uri: String,
    pub(super) kind: ServerKind,
    pub(super) program: Option<PathBuf>,
    pub(super) process: Option<Supervised>,
}

/// A server started by this process, under its supervisor.
#[derive(Debug)]
pub(super) struct Supervised {
    pub(super) log: PathBuf,
    pub(super) supervisor: Mutex<Child>,
    /// Never written to and never dropped (it lives in a static): the kernel closes it when
    /// this process exits, which tells the supervisor to stop the server.
    pub(super) _lifeline: ChildStdin,
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

/// ` (exit status N)` from the `server.status` the supervisor leaves when the server dies.
pub(super) fn server_status(run_dir: &Path) -> String {
    match fs::read_to_string(run_dir.join("server.status")) {
        Ok(status) if !status.trim().is_empty() => format!(" (exit status {})", status.trim()),
        _ => String::new(),
    }
}

/// The last lines of a log file, indented, for an error message.
pub(super) fn log_tail(path: &Path) -> String {
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

#[cfg(test)]
mod tests {
    use super::super::database::process_tag;
    use super::*;

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
