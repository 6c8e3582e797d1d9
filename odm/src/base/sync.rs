//! `odm::sync` without a server (users read its documentation on the module, `src/sync.rs`): startup sync: one call brings the database in line with the models, so schema changes ship with the code.

pub(crate) mod mode;
pub(crate) mod report;
pub(crate) mod spec;

pub use mode::{SyncMode, Topology, ValidatorRollout};
pub use report::{Outcome, SyncReport};
pub use spec::ModelSpec;
