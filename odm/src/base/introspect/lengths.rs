//! The lengths seen at a path (of arrays, of strings), kept as a histogram of bounded size, so a survey of any number
//! of documents holds the same memory.

use std::collections::BTreeMap;

/// Distinct lengths a histogram keeps before it rounds lengths up to a coarser step.
const BUCKETS: usize = 1024;

/// How long the arrays (or strings, in bytes) at one path were.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Lengths {
    /// How many were measured.
    pub count: u64,
    /// The shortest.
    pub min: u64,
    /// The longest.
    pub max: u64,
    /// The 95th percentile: 95 % of them were at most this long. Exact while the lengths seen take at most 1,024
    /// distinct values; past that, rounded up to the step the histogram then keeps (never below the true value).
    pub p95: u64,
}

/// Counts of lengths, rounded up to a multiple of `1 << shift` once they take more than [`BUCKETS`] values.
#[derive(Clone, Debug, Default)]
pub(crate) struct Histogram {
    counts: BTreeMap<u64, u64>,
    shift: u32,
    count: u64,
    min: u64,
    max: u64,
}

impl Histogram {
    pub(crate) fn add(&mut self, length: u64) {
        if self.count == 0 || length < self.min {
            self.min = length;
        }
        self.max = self.max.max(length);
        self.count += 1;
        *self.counts.entry(round_up(length, self.shift)).or_default() += 1;
        self.coarsen();
    }

    /// Adds every length `other` counted (a map's entries folded together).
    pub(crate) fn merge(&mut self, other: &Histogram) {
        if other.count == 0 {
            return;
        }
        self.min = if self.count == 0 { other.min } else { self.min.min(other.min) };
        self.max = self.max.max(other.max);
        self.count += other.count;
        for (&length, &n) in &other.counts {
            *self.counts.entry(round_up(length, self.shift)).or_default() += n;
        }
        self.coarsen();
    }

    fn coarsen(&mut self) {
        while self.counts.len() > BUCKETS {
            self.shift += 1;
            let shift = self.shift;
            for (length, n) in std::mem::take(&mut self.counts) {
                *self.counts.entry(round_up(length, shift)).or_default() += n;
            }
        }
    }

    pub(crate) fn lengths(&self) -> Option<Lengths> {
        if self.count == 0 {
            return None;
        }
        // The smallest length with at least 95 % of the counts at or below it.
        let needed = self.count - self.count / 20;
        let mut seen = 0;
        let mut p95 = self.max;
        for (&length, &n) in &self.counts {
            seen += n;
            if seen >= needed {
                p95 = length.min(self.max);
                break;
            }
        }
        Some(Lengths { count: self.count, min: self.min, max: self.max, p95 })
    }
}

fn round_up(length: u64, shift: u32) -> u64 {
    if shift == 0 {
        return length;
    }
    let step = 1u64 << shift;
    length.div_ceil(step).saturating_mul(step)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_while_few_lengths_are_seen() {
        let mut h = Histogram::default();
        for n in 1..=100 {
            h.add(n);
        }
        assert_eq!(h.lengths(), Some(Lengths { count: 100, min: 1, max: 100, p95: 95 }));
        assert_eq!(Histogram::default().lengths(), None);
    }

    #[test]
    fn bounded_and_never_below_the_truth_when_lengths_vary_widely() {
        let mut h = Histogram::default();
        for n in 0..100_000 {
            h.add(n);
        }
        assert!(h.counts.len() <= BUCKETS);
        let l = h.lengths().unwrap();
        assert_eq!((l.count, l.min, l.max), (100_000, 0, 99_999));
        assert!(l.p95 >= 94_999 && l.p95 <= 94_999 + (1 << h.shift), "{l:?}");
    }

    #[test]
    fn merged_histograms_count_both() {
        let (mut a, mut b) = (Histogram::default(), Histogram::default());
        [3, 4, 4].into_iter().for_each(|n| a.add(n));
        [1, 9].into_iter().for_each(|n| b.add(n));
        a.merge(&b);
        assert_eq!(a.lengths(), Some(Lengths { count: 5, min: 1, max: 9, p95: 9 }));
    }
}
