//! Whether two stored paths overlap (one equals or contains the other), segment-wise.

/// True when two dotted paths are equal or one is a prefix of the other (segment-wise).
#[inline]
pub(crate) fn overlaps(a: &str, b: &str) -> bool {
    if a.as_bytes().first() != b.as_bytes().first() {
        return false;
    }
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    long.starts_with(short) && (long.len() == short.len() || long.as_bytes()[short.len()] == b'.')
}

#[cfg(test)]
mod tests {
    use super::overlaps;

    #[test]
    fn overlap_is_segment_wise() {
        assert!(overlaps("a", "a"));
        assert!(overlaps("a", "a.b"));
        assert!(overlaps("a.b.c", "a.b"));
        assert!(!overlaps("a", "ab"));
        assert!(!overlaps("a.b", "a.c"));
        assert!(!overlaps("it.$[].p", "it.$[x].p"));
    }
}
