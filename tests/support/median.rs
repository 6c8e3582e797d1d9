//! The median of a bench's rounds, shared by the bench binaries (included with `#[path]`).

/// The middle value of `v` (the upper of the two middle ones for an even count). Values compare with `partial_cmp`:
/// rates, durations and counts, never NaN.
pub fn median<T: Copy + PartialOrd>(mut v: Vec<T>) -> T {
    v.sort_by(|a, b| a.partial_cmp(b).expect("comparable"));
    v[v.len() / 2]
}
