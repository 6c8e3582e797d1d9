//! `odm::migrate` without a server (users read its documentation on the module, `src/migrate.rs`): batch migration: one call brings every document of a versioned model's collection to the current version.

pub(crate) mod options;
pub(crate) mod report;

pub use options::{Guard, Throttle};
pub use report::{MigrationFailure, MigrationReport};
