//! What a sync is told and what it reports: `SyncMode`, `Topology`, `ValidatorRollout` (`mode`), `SyncReport`
//! (`report`) and `ModelSpec` (`spec`); the plan is `crate::base::plan`. Comparing and executing is
//! `crate::driver::sync`. Users read the docs at `odm::sync` (src/sync.rs).

pub(crate) mod mode;
pub(crate) mod report;
pub(crate) mod spec;

pub use mode::{SyncMode, Topology, ValidatorRollout};
pub use report::{Outcome, SyncReport};
pub use spec::ModelSpec;
