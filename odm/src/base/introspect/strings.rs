//! Strings that hold another type's value: a date written as text (what rule `date-string` keeps out of models), a
//! number written as text (compared as text by queries and sorts: `"9" > "10"`). A migration can parse such a path
//! only when every value at it parses.

/// Whether `s` is a date (or a date and time) as programs write them to text: RFC 3339 (`2024-05-01T12:30:00Z`,
/// with a fraction or an offset), the same without a zone, with a space for the `T`, or a bare `2024-05-01`.
pub(crate) fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 10 || !is_ymd(&b[..10]) {
        return false;
    }
    let rest = &b[10..];
    if rest.is_empty() {
        return true;
    }
    if !matches!(rest[0], b'T' | b' ') || rest.len() < 9 || !is_hms(&rest[1..9]) {
        return false;
    }
    let mut tail = &rest[9..];
    if let Some(fraction) = tail.strip_prefix(b".") {
        let digits = fraction.iter().take_while(|c| c.is_ascii_digit()).count();
        if digits == 0 {
            return false;
        }
        tail = &fraction[digits..];
    }
    match tail {
        [] | [b'Z'] => true,
        [b'+' | b'-', h1, h2, b':', m1, m2] => [h1, h2, m1, m2].iter().all(|c| c.is_ascii_digit()),
        _ => false,
    }
}

/// `YYYY-MM-DD` with a month and a day that exist in some year.
fn is_ymd(b: &[u8]) -> bool {
    let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
    if !(digits(0..4) && b[4] == b'-' && digits(5..7) && b[7] == b'-' && digits(8..10)) {
        return false;
    }
    let two = |i: usize| u32::from(b[i] - b'0') * 10 + u32::from(b[i + 1] - b'0');
    let (month, day) = (two(5), two(8));
    (1..=12).contains(&month) && (1..=31).contains(&day)
}

/// `HH:MM:SS`.
fn is_hms(b: &[u8]) -> bool {
    let two = |i: usize| {
        (b[i].is_ascii_digit() && b[i + 1].is_ascii_digit())
            .then(|| u32::from(b[i] - b'0') * 10 + u32::from(b[i + 1] - b'0'))
    };
    b[2] == b':'
        && b[5] == b':'
        && matches!((two(0), two(3), two(6)), (Some(h), Some(m), Some(s)) if h < 24 && m < 60 && s < 61)
}

/// Whether `s` is a number written as text, one a program could store as a number without losing anything: an
/// integer or a finite decimal, no spaces, no sign `+`, and no leading zero (`"02138"` is a code, not a number: as a
/// number it would lose its zero).
pub(crate) fn is_number(s: &str) -> bool {
    let digits = s.strip_prefix('-').unwrap_or(s);
    let whole = digits.split('.').next().unwrap_or("");
    if digits.is_empty() || s.len() > 32 || (whole.len() > 1 && whole.starts_with('0')) {
        return false;
    }
    if !digits.bytes().all(|c| c.is_ascii_digit() || c == b'.') {
        return false;
    }
    s.parse::<i64>().is_ok() || s.parse::<f64>().is_ok_and(f64::is_finite) && !s.ends_with('.') && !s.starts_with('.')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_as_programs_write_them() {
        for s in [
            "2024-05-01",
            "2024-05-01T12:30:00Z",
            "2024-05-01T12:30:00.123Z",
            "2024-05-01 12:30:00",
            "2024-05-01T12:30:00+02:00",
            "1999-12-31T23:59:60",
        ] {
            assert!(is_date(s), "{s}");
        }
        for s in [
            "2024-13-01",
            "2024-05-32",
            "2024/05/01",
            "20240501",
            "2024-05-01T25:00:00",
            "2024-05-01T12:30",
            "2024-05-01Z",
            "May 1, 2024",
            "",
            "2024-05-01T12:30:00.Z",
            "2024-05-01T12:30:00+0200",
        ] {
            assert!(!is_date(s), "{s}");
        }
    }

    #[test]
    fn numbers_that_lose_nothing_as_numbers() {
        for s in ["0", "42", "-7", "3.25", "-0.5", "0.75", "9223372036854775807"] {
            assert!(is_number(s), "{s}");
        }
        for s in ["", "-", "02138", "00", "+4", " 4", "4 ", "1e5", "NaN", "inf", "1.", ".5", "4,2", "1.2.3", "0x1F"] {
            assert!(!is_number(s), "{s}");
        }
    }
}
