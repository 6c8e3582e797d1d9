//! Shared test support, compiled into each integration-test binary by `mod support;`: models several binaries use,
//! hostile-document builders, database setup, clients that record commands, raw-driver reads and writes, readers of what the server holds,
//! mongosh, and worker processes. (`cpu.rs` and `interleaved.rs` are for the benches, which include them by path.)
// Each binary uses only part of this module.
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
