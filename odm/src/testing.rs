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
//! # Capturing odm's spans
//!
//! [`SpanCapture`] is a small `tracing` subscriber that keeps every span and event odm emits, for a test to check
//! them (one `odm.op` span per command sent, its fields recorded once; see [`crate::observe`]).
//!
//! # Example
//!
//! ```rust,no_run
//! # async fn demo() {
//! let db = odm::testing::database("orders").await;
//! let n = db.collection::<mongodb::bson::Document>("x").count_documents(mongodb::bson::doc! {}).await.unwrap();
//! # }
//! ```

mod database;
mod install;
mod launch;
mod mongosh;
mod patterns;
mod server;
mod server_info;
mod spans;

pub use database::{database, Closed, TestDatabase, CLOSE_GRACE};
pub use launch::{server, SECANTUS_VERSION};
pub use mongosh::{mongosh, run_mongosh, MONGOSH_VERSION};
pub use patterns::{access_patterns, assert_access_patterns, AssertAccessPatterns, PatternCheck, Verdict};
pub use server::{ServerKind, TestServer};
pub use server_info::{Deployment, Product, ServerInfo};
pub use spans::{CaptureGuard, CapturedEvent, CapturedSpan, SpanCapture};
