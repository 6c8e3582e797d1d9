//! What some errors name without text: what odm waited for when it timed out ([`Waited`]), and a server feature an
//! operation needs ([`Feature`]).

use std::fmt;
use std::time::Duration;

/// What odm waited for when it gave up ([`Error::Timeout`](crate::Error::Timeout)).
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Waited {
    /// Planning a sync ([`crate::SchemaSync::plan`]); bounded by [`crate::SchemaSync::timeout`].
    Plan,
    /// Running a sync; bounded by [`crate::SchemaSync::timeout`].
    Sync,
    /// An index another sync was building, which never appeared in the collection's index list.
    IndexBuild {
        /// `<db>.<collection>`.
        namespace: String,
        /// The index's name.
        index: String,
    },
}

impl Waited {
    /// The text of [`Error::Timeout`](crate::Error::Timeout).
    pub(crate) fn fmt_bound(&self, f: &mut fmt::Formatter<'_>, limit: Duration) -> fmt::Result {
        match self {
            Waited::Plan => write!(f, "planning did not finish within {limit:?}; is the server reachable?"),
            Waited::Sync => write!(f, "sync did not finish within {limit:?}; is the server reachable?"),
            Waited::IndexBuild { namespace, index } => write!(
                f,
                "{namespace}: index {index} was being built by another sync but never appeared (waited {limit:?})"
            ),
        }
    }
}

/// A server feature an operation needs ([`Error::Unsupported`](crate::Error::Unsupported)).
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Feature {
    /// Multi-document transactions: a replica set or a sharded cluster runs them, a standalone server does not.
    Transactions,
}
