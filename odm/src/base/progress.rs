//! `Progress`: how far a long job (a schema check, a migration, a repair, a dump or a restore) has come, with its
//! rate, time left and fraction done. Users read the docs at `odm::progress` (src/progress.rs).

use std::time::Duration;

/// How far a schema check or a migration has come, given to its `on_progress` callback after every batch. The counts
/// a job does not keep stay 0 (a check migrates nothing).
///
/// ```
/// # fn show(p: &odm::progress::Progress) {
/// println!("{:.0} % done, {} failing, about {:?} left", p.fraction() * 100.0, p.failed, p.eta());
/// # }
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct Progress {
    /// Documents dealt with so far: checked, or migrated, failed, or found deleted or already current when read
    /// again; dumped or restored. Never decreases.
    pub done: u64,
    /// Documents to deal with: in the collection when a check started (an estimate: writes go on meanwhile), or not
    /// at the current version when a migration started (`done` when more were found since); in the collections
    /// when a dump started (an estimate); for a restore, `done` (a dump does not record its counts).
    pub total: u64,
    /// Documents found failing so far: refused by the validator (a check), or left unmigrated because they fail (a
    /// migration: see [`MigrationReport::failed`](crate::migrate::MigrationReport::failed)).
    pub failed: u64,
    /// Documents a migration stored at the current version so far.
    pub migrated: u64,
    /// Documents a migration read again because another writer changed them between its read and its write (see
    /// [`MigrationReport::retried`](crate::migrate::MigrationReport::retried)).
    pub retried: u64,
    /// Copies a reference repair ([`crate::reference::Repair`]) set to their source's value so far.
    pub repaired: u64,
    /// Time since the job started, pauses included.
    pub elapsed: Duration,
}

impl Progress {
    /// Documents dealt with per second so far (0 before any time has passed).
    pub fn rate(&self) -> f64 {
        rate(self.done, self.elapsed)
    }

    /// The time left at the rate so far (`None` before the rate is known).
    pub fn eta(&self) -> Option<Duration> {
        let rate = self.rate();
        (rate > 0.0).then(|| Duration::from_secs_f64(self.total.saturating_sub(self.done) as f64 / rate))
    }

    /// The fraction done, from 0 to 1 (1 when there is nothing to do), for a progress bar.
    pub fn fraction(&self) -> f64 {
        if self.total == 0 {
            1.0
        } else {
            (self.done as f64 / self.total as f64).min(1.0)
        }
    }
}

/// Items per second so far (0 before any time has passed).
fn rate(done: u64, elapsed: Duration) -> f64 {
    let secs = elapsed.as_secs_f64();
    if secs > 0.0 {
        done as f64 / secs
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_knows_its_rate_and_what_is_left() {
        let p = Progress {
            done: 500,
            total: 2000,
            migrated: 490,
            retried: 3,
            failed: 10,
            repaired: 0,
            elapsed: Duration::from_secs(2),
        };
        assert_eq!(p.rate(), 250.0);
        assert_eq!(p.eta(), Some(Duration::from_secs(6)));
        assert_eq!(p.fraction(), 0.25);
        assert_eq!(Progress { elapsed: Duration::ZERO, ..p }.eta(), None);
        assert_eq!(Progress { total: 0, done: 0, ..p }.fraction(), 1.0);
    }
}
