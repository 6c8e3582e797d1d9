//! Every integration test of odm, against a real server, in one test binary: one module per topic (a former test
//! binary of its own), so the workspace compiles and links one binary instead of one per topic, and the tests of all
//! topics share the one server `odm::testing` starts for this process (each test still opens its own database, and
//! the server stops when the process exits). `cargo test -p odm-tests --test it <module>::` runs one topic.
//!
//! What is process-wide here is shared by every topic: the test server, the tracing dispatcher (`sync` installs a
//! global subscriber for its warnings; `tracing` and `backup::spans` capture on their own thread), and the worker
//! tests that `fleet`, `sync_processes` and `backup` start in child processes of this binary (named by their full
//! path, `fleet::fleet_worker`). The compile-fail suite stays a binary of its own (`ui.rs`).

#[path = "../pulled_check.rs"]
#[allow(dead_code)]
mod pulled_check;
#[path = "../support/mod.rs"]
mod support;

mod aggregate;
mod audit;
mod backup;
mod bucket;
mod bulk;
mod cli;
mod closed;
mod computed;
mod connection;
mod counters;
mod explain;
mod field_compare;
mod fleet;
mod hostile;
mod indexes;
mod instances;
mod introspect;
mod live;
mod migrate;
mod mongosh;
mod polymorphic;
mod pull;
mod references;
mod revisions;
mod runtime;
mod schema;
mod schema_check;
mod server_errors;
mod sharding;
mod size_budget;
mod subset;
mod sync;
mod sync_processes;
mod timeseries;
mod tracing;
mod transactions;
mod updates;
mod validator_props;
mod versions;
mod views;
mod watch;
