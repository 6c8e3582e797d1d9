//! How far a misspelt name is from a known one, for "did you mean" hints. Self-contained and `const` on purpose:
//! the derive uses it for the names it can see, and the code it generates embeds this very file to guess among the
//! fields of an embedded type, which only the compiler's const evaluation can see. Keep it free of `use` and of
//! anything a `const fn` cannot do; its tests live in `distance_tests.rs`, out of the generated code.

/// Longest name compared, in bytes; a longer one gets no guess.
const MAX: usize = 64;

/// The distance between two names, ignoring ASCII case: inserting, deleting or changing a byte, or swapping two
/// neighbours, costs 1 (optimal string alignment, so `stauts` is 1 from `status`). `usize::MAX` past `MAX` bytes.
pub const fn distance(a: &str, b: &str) -> usize {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() > MAX || b.len() > MAX {
        return usize::MAX;
    }
    // Rows `i % 3` of the table: a swap looks two rows back.
    let mut rows = [[0usize; MAX + 1]; 3];
    let mut j = 0;
    while j <= b.len() {
        rows[0][j] = j;
        j += 1;
    }
    let mut i = 1;
    while i <= a.len() {
        let (cur, prev, prev2) = (i % 3, (i + 2) % 3, (i + 1) % 3);
        rows[cur][0] = i;
        let ca = a[i - 1].to_ascii_lowercase();
        let mut j = 1;
        while j <= b.len() {
            let cb = b[j - 1].to_ascii_lowercase();
            let change = rows[prev][j - 1] + if ca == cb { 0 } else { 1 };
            let mut d = rows[prev][j] + 1;
            if rows[cur][j - 1] + 1 < d {
                d = rows[cur][j - 1] + 1;
            }
            if change < d {
                d = change;
            }
            let swapped = i > 1 && j > 1 && ca == b[j - 2].to_ascii_lowercase() && a[i - 2].to_ascii_lowercase() == cb;
            if swapped && rows[prev2][j - 2] + 1 < d {
                d = rows[prev2][j - 2] + 1;
            }
            rows[cur][j] = d;
            j += 1;
        }
        i += 1;
    }
    rows[a.len() % 3][b.len()]
}

/// True when a known name at `distance` from the misspelt `name` is worth suggesting: within a third of its length,
/// and 1 for names of up to five bytes (the threshold rustc uses for its own suggestions).
pub const fn close_enough(name: &str, distance: usize) -> bool {
    let len = if name.len() > 3 { name.len() } else { 3 };
    distance <= len / 3
}
