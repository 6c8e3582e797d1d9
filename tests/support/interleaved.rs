//! Timing two closures in alternating batches, for the benches' side-by-side ratios (both sides see the same load on
//! a shared machine). Included by the bench binaries with `#[path]`.

use std::time::Instant;

/// Per-call times of `a` and `b`: the medians over the rounds, and the median of the per-round ratios.
pub struct Interleaved {
    pub a_ns: f64,
    pub b_ns: f64,
    pub ratio: f64,
}

impl std::fmt::Display for Interleaved {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:.0} ns, baseline {:.0} ns, ratio {:.2}×", self.a_ns, self.b_ns, self.ratio)
    }
}

/// Times `calls` calls of `a`, then of `b` (the order alternating per round), over `rounds` rounds after a warm-up.
pub fn interleaved(calls: u32, rounds: usize, mut a: impl FnMut(), mut b: impl FnMut()) -> Interleaved {
    let time = |f: &mut dyn FnMut()| {
        let start = Instant::now();
        for _ in 0..calls {
            f();
        }
        start.elapsed().as_nanos() as f64 / f64::from(calls)
    };
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    time(&mut a);
    time(&mut b);
    let (mut ta, mut tb, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..rounds {
        let (x, y) = if round % 2 == 0 {
            let x = time(&mut a);
            (x, time(&mut b))
        } else {
            let y = time(&mut b);
            (time(&mut a), y)
        };
        ta.push(x);
        tb.push(y);
        ratios.push(x / y);
    }
    Interleaved { a_ns: median(ta), b_ns: median(tb), ratio: median(ratios) }
}
