//! What a migration is told: how fast it may go ([`Throttle`]) and how each rewrite makes sure the document did not
//! change meanwhile ([`Guard`]).

use std::time::Duration;

/// How [`Migration::throttle`](crate::migrate::Migration::throttle) slows a migration down.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Throttle {
    /// At most this many documents per second on average (the migration sleeps after a batch that got ahead).
    DocsPerSecond(f64),
    /// This long a pause after every batch.
    Pause(Duration),
}

/// How each replacement of a migration makes sure the document did not change since it was read (see the
/// [module documentation](crate::migrate#the-guard)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Guard {
    /// The whole document as read: exact against any writer (the default).
    #[default]
    Document,
    /// The version the document was read at: exact when every writer runs this release or a newer one; a plain
    /// replacement, as cheap as a hand-written loop's.
    Version,
}
