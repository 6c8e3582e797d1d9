//! What a migration is told and what it reports: `Throttle` and `Guard` (`options`), `MigrationReport` and
//! `MigrationFailure` (`report`). Running one is `crate::driver::migrate`. Users read the docs at `odm::migrate`
//! (src/migrate.rs).

pub(crate) mod options;
pub(crate) mod report;

pub use options::{Guard, Throttle};
pub use report::{MigrationFailure, MigrationReport};
