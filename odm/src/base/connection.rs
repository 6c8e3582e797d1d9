//! `odm::connection` without a server (users read its documentation on the module, `src/connection.rs`): the connection checklist: settings of the connection that contradict what the models need, found at startup rather than in production.

mod warning;

pub use warning::{ConnectionWarning, DRIVER_DEFAULT_POOL_SIZE};
