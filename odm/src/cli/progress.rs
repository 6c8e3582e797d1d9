//! Progress of the long scans (`check`, `migrate`): an indicatif bar when standard error is a terminal, otherwise a
//! plain line every few seconds (nothing under `--quiet`, nor under `--json` unless a terminal shows the bar), so a
//! log or a JSON reader never sees a bar's control characters.

use crate::progress::Progress;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::future::Future;
use std::io::IsTerminal;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How often a plain progress line is printed.
const PLAIN_EVERY: Duration = Duration::from_secs(5);

/// How progress is shown, decided once per run.
#[derive(Clone, Copy, Debug)]
pub(super) enum Display {
    /// A progress bar on standard error (a terminal).
    Bar,
    /// A line on standard error every few seconds.
    Lines,
    /// Nothing.
    Hidden,
}

impl Display {
    /// What this run shows: a bar on a terminal; lines in a log unless the output is quiet or JSON.
    pub(super) fn choose(quiet: bool, json: bool) -> Display {
        match (quiet, std::io::stderr().is_terminal(), json) {
            (true, _, _) => Display::Hidden,
            (false, true, _) => Display::Bar,
            (false, false, false) => Display::Lines,
            (false, false, true) => Display::Hidden,
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
        match self {
            Display::Bar => {
                let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
                let style = ProgressStyle::with_template("{msg} [{wide_bar}] {pos}/{len} eta {eta}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar())
                    .progress_chars("=> ");
                bar.set_style(style);
                bar.set_message(label);
                Tracker::Bar(bar)
            }
            Display::Lines => Tracker::Lines(Arc::new(Mutex::new((label, Instant::now())))),
            Display::Hidden => Tracker::Hidden,
        }
    }
}

/// One scan's progress display; cheap to clone into a job's `on_progress` callback.
#[derive(Clone)]
pub(super) enum Tracker {
    /// An indicatif bar.
    Bar(ProgressBar),
    /// The label and when the last line was printed.
    Lines(Arc<Mutex<(String, Instant)>>),
    /// Nothing shown.
    Hidden,
}

impl Tracker {
    /// Shows `p`, the job's progress after a batch.
    pub(super) fn update(&self, p: &Progress) {
        match self {
            Tracker::Bar(bar) => {
                bar.set_length(p.total.max(p.done));
                bar.set_position(p.done);
            }
            Tracker::Lines(state) => {
                let mut state = state.lock().unwrap_or_else(|e| e.into_inner());
                if state.1.elapsed() >= PLAIN_EVERY {
                    state.1 = Instant::now();
                    eprintln!("{}: {}/{} done, {} failing, {:.0}/s", state.0, p.done, p.total, p.failed, p.rate());
                }
            }
            Tracker::Hidden => {}
        }
    }

    /// Ends the display (a bar is cleared: the report follows).
    fn finish(&self) {
        if let Tracker::Bar(bar) = self {
            bar.finish_and_clear();
        }
    }
}
