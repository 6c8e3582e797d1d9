//! The `on_progress` callback as every job that talks to a server keeps it (a schema check, a migration, a repair,
//! an introspection, a dump or a restore). `Progress` itself is `crate::base::progress`. Users read the docs at
//! `odm::progress` (src/progress.rs).

use crate::base::progress::Progress;

/// A job's `on_progress` callback.
pub(crate) type OnProgress<'a> = Box<dyn FnMut(&Progress) + Send + 'a>;
