//! The `on_progress` callback as every job that talks to a server keeps it (a schema check, a migration, a repair,
//! an introspection, a dump or a restore). `Progress` itself is `crate::base::progress`. Users read the docs at
//! `odm::progress` (src/progress.rs).

use crate::base::progress::Progress;
use std::time::Instant;

/// A job's `on_progress` callback.
pub(crate) type OnProgress<'a> = Box<dyn FnMut(&Progress) + Send + 'a>;

/// The progress of a job that only reads or writes documents (an introspection, a dump, a restore): `done` of
/// `total` (at least `done`: an estimate may fall behind), since `started`.
pub(crate) fn documents(done: u64, total: u64, started: Instant) -> Progress {
    Progress {
        done,
        total: total.max(done),
        failed: 0,
        migrated: 0,
        retried: 0,
        repaired: 0,
        elapsed: started.elapsed(),
    }
}
