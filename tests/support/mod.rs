//! Shared test support, compiled into the integration-test binary (`it/main.rs`) by `mod support;`: models several
//! topics use, hostile-document builders, database setup, clients that record commands, raw-driver reads and writes,
//! readers of what the server holds, mongosh, and worker processes. (`cpu.rs`, `interleaved.rs`, `median.rs` and
//! `process.rs` are for the benches, which include them by path.)
// Not every helper is used by the tests of every build (the benches include only parts of it).
#![allow(dead_code)]

pub mod commands;
pub mod compare;
pub mod hostile;
pub mod models;
pub mod raw;
pub mod server;
pub mod setup;
pub mod shell;
pub mod workers;
