//! The arithmetic of progress reports (the schema checker's and the migration's): rate, time left, fraction done.

use std::time::Duration;

/// Items per second so far (0 before any time has passed).
pub(crate) fn rate(done: u64, elapsed: Duration) -> f64 {
    let secs = elapsed.as_secs_f64();
    if secs > 0.0 {
        done as f64 / secs
    } else {
        0.0
    }
}

/// The time left at the rate so far (`None` before the rate is known).
pub(crate) fn eta(done: u64, total: u64, elapsed: Duration) -> Option<Duration> {
    let rate = rate(done, elapsed);
    (rate > 0.0).then(|| Duration::from_secs_f64(total.saturating_sub(done) as f64 / rate))
}

/// The fraction done, from 0 to 1 (1 when there is nothing to do).
pub(crate) fn fraction(done: u64, total: u64) -> f64 {
    if total == 0 {
        1.0
    } else {
        (done as f64 / total as f64).min(1.0)
    }
}
