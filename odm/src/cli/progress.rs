//! Progress of the long jobs (`check`, `migrate`, `dump`, `restore`), only where a person watches: an indicatif bar
//! when standard error is a terminal, otherwise a plain line every few seconds (a log), and nothing under `--quiet`
//! or `--json` (a program reads that run's output), so a log or a JSON reader never sees a bar's control characters.
//!
//! The rate and the time left are the command line's own, from the time the job started to the moment the count
//! arrives: a count that arrives late, after a long first batch, is not read as a slow rate, and indicatif's
//! estimator (which smooths over its updates) never guesses from a count that jumped.

use crate::base::progress::Progress;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How often a plain progress line is printed.
const PLAIN_EVERY: Duration = Duration::from_secs(5);

/// How progress is shown, decided once per run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Display {
    /// A progress bar on standard error (a terminal).
    Bar,
    /// A line on standard error every few seconds.
    Lines,
    /// Nothing.
    Hidden,
}

impl Display {
    /// What this run shows: nothing under `--quiet` or `--json`; else a bar when standard error is a terminal
    /// (`terminal`, asked of the process by the caller), lines when it is not.
    pub(super) fn choose(quiet: bool, json: bool, terminal: bool) -> Display {
        match (quiet || json, terminal) {
            (true, _) => Display::Hidden,
            (false, true) => Display::Bar,
            (false, false) => Display::Lines,
        }
    }

    /// Runs the job that `job` makes of a tracker (its `on_progress` callback updating it), showing its progress
    /// under `label` (`check shop.order_header`) until it ends.
    pub(super) async fn track<T, F: Future<Output = T>>(self, label: String, job: impl FnOnce(Tracker) -> F) -> T {
        let tracker = self.start(label);
        let out = job(tracker.clone()).await;
        tracker.finish();
        out
    }

    /// A tracker for one job, labelled `label`.
    fn start(self, label: String) -> Tracker {
        let meter = Meter { started: Instant::now() };
        match self {
            Display::Bar => {
                let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
                let style = ProgressStyle::with_template("{prefix} [{wide_bar}] {pos}/{len} {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar())
                    .progress_chars("=> ");
                bar.set_style(style);
                bar.set_prefix(label);
                // Drawn at once, before the first count arrives, so a person sees the job has begun.
                bar.tick();
                Tracker::Bar(bar, meter)
            }
            Display::Lines => Tracker::Lines(Arc::new(Mutex::new(Lines { label, meter, printed: meter.started }))),
            Display::Hidden => Tracker::Hidden,
        }
    }
}

/// A job's rate and time left, from the time it started: the fake clock of the tests is the `now` they pass.
#[derive(Clone, Copy, Debug)]
pub(super) struct Meter {
    started: Instant,
}

impl Meter {
    /// Items per second from the start to `now` (0 before any time has passed).
    fn rate(&self, done: u64, now: Instant) -> f64 {
        let secs = now.saturating_duration_since(self.started).as_secs_f64();
        if secs > 0.0 {
            done as f64 / secs
        } else {
            0.0
        }
    }

    /// The time left at that rate (`None` before the rate is known; zero once `done` reaches `total`).
    fn eta(&self, done: u64, total: u64, now: Instant) -> Option<Duration> {
        if done >= total {
            return Some(Duration::ZERO);
        }
        let rate = self.rate(done, now);
        (rate > 0.0).then(|| Duration::from_secs_f64((total - done) as f64 / rate))
    }

    /// `4012/s, eta 12s`, the bar's message and the end of a plain line.
    fn status(&self, p: &Progress, now: Instant) -> String {
        let eta = self.eta(p.done, p.total, now).map_or_else(|| "?".to_owned(), clock);
        format!("{:.0}/s, eta {eta}", self.rate(p.done, now))
    }

    /// A plain progress line: `check shop.order_header: 3000/17000 done, 2 failing, 4012/s, eta 3s`.
    fn line(&self, label: &str, p: &Progress, now: Instant) -> String {
        format!("{label}: {}/{} done, {} failing, {}", p.done, p.total.max(p.done), p.failed, self.status(p, now))
    }
}

/// A duration as a person reads a time left: `45s`, `3m05s`, `2h07m`.
fn clock(d: Duration) -> String {
    let secs = d.as_secs_f64().ceil() as u64;
    match secs {
        0..60 => format!("{secs}s"),
        60..3600 => format!("{}m{:02}s", secs / 60, secs % 60),
        _ => format!("{}h{:02}m", secs / 3600, secs % 3600 / 60),
    }
}

/// The state of plain lines: the label, the meter, when the last line was printed.
pub(super) struct Lines {
    label: String,
    meter: Meter,
    printed: Instant,
}

/// One job's progress display; cheap to clone into a job's `on_progress` callback.
#[derive(Clone)]
pub(super) enum Tracker {
    /// An indicatif bar.
    Bar(ProgressBar, Meter),
    /// Plain lines.
    Lines(Arc<Mutex<Lines>>),
    /// Nothing shown.
    Hidden,
}

impl Tracker {
    /// Shows `p`, the job's progress after a batch.
    pub(super) fn update(&self, p: &Progress) {
        let now = Instant::now();
        match self {
            Tracker::Bar(bar, meter) => {
                bar.set_length(p.total.max(p.done));
                bar.set_message(meter.status(p, now));
                bar.set_position(p.done);
            }
            Tracker::Lines(state) => {
                let mut state = state.lock().unwrap_or_else(|e| e.into_inner());
                if now.saturating_duration_since(state.printed) >= PLAIN_EVERY {
                    state.printed = now;
                    eprintln!("{}", state.meter.line(&state.label, p, now));
                }
            }
            Tracker::Hidden => {}
        }
    }

    /// Ends the display (a bar is cleared: the report follows).
    fn finish(&self) {
        if let Tracker::Bar(bar, _) = self {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bar_only_where_a_person_watches() {
        // (quiet, json, terminal)
        assert_eq!(Display::choose(false, false, true), Display::Bar);
        assert_eq!(Display::choose(false, false, false), Display::Lines);
        assert_eq!(Display::choose(false, true, true), Display::Hidden, "--json on a terminal draws nothing");
        assert_eq!(Display::choose(false, true, false), Display::Hidden);
        assert_eq!(Display::choose(true, false, true), Display::Hidden);
        assert_eq!(Display::choose(true, true, false), Display::Hidden);
    }

    fn progress(done: u64, total: u64, failed: u64, elapsed: Duration) -> Progress {
        Progress { done, total, failed, migrated: 0, retried: 0, repaired: 0, elapsed }
    }

    #[test]
    fn rate_and_time_left_come_from_the_time_that_passed() {
        let meter = Meter { started: Instant::now() };
        let at = |secs: f64| meter.started + Duration::from_secs_f64(secs);
        // 4,000 checked in 1 s: 4000/s, 13,000 left: 3.25 s.
        assert_eq!(meter.rate(4000, at(1.0)), 4000.0);
        assert_eq!(meter.eta(4000, 17_000, at(1.0)), Some(Duration::from_millis(3250)));
        // A count that arrives late is divided by the whole time, whatever the job's own clock said.
        let late = progress(1000, 17_000, 2, Duration::from_millis(10));
        assert_eq!(
            meter.line("check shop.book", &late, at(5.0)),
            "check shop.book: 1000/17000 done, 2 failing, 200/s, eta 1m20s"
        );
        // Nothing yet, or no time passed: no rate, no guess.
        assert_eq!(meter.rate(0, at(0.0)), 0.0);
        assert_eq!(meter.eta(0, 10, at(2.0)), None);
        assert_eq!(meter.status(&progress(5, 10, 0, Duration::ZERO), at(0.0)), "0/s, eta ?");
        // Done: nothing left, whatever the rate.
        assert_eq!(meter.eta(17_000, 17_000, at(4.0)), Some(Duration::ZERO));
        assert_eq!(meter.status(&progress(17_000, 17_000, 0, Duration::ZERO), at(4.0)), "4250/s, eta 0s");
        // A total that grew below what is done reads as done.
        assert_eq!(
            meter.line("x", &progress(12, 10, 0, Duration::ZERO), at(1.0)),
            "x: 12/12 done, 0 failing, 12/s, eta 0s"
        );
    }

    #[test]
    fn time_left_reads_as_a_clock() {
        assert_eq!(clock(Duration::from_millis(400)), "1s");
        assert_eq!(clock(Duration::from_secs(59)), "59s");
        assert_eq!(clock(Duration::from_secs(185)), "3m05s");
        assert_eq!(clock(Duration::from_secs(7620)), "2h07m");
    }
}
