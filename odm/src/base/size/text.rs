//! Text built in const evaluation: a compile-time refusal cannot call `format!`, so its message (numbers included)
//! is written into a fixed buffer. The run-time `Display` of a budget writes through the same code, so both read
//! alike.

use super::budget::{Budget, Unbounded};
use std::fmt;

/// The buffer's size: room for the longest refusal, type and field names included.
const CAPACITY: usize = 1024;

/// A message written in const evaluation. Text that no longer fits is left out whole, so what is written stays UTF-8.
#[derive(Clone, Copy)]
pub struct Message {
    buf: [u8; CAPACITY],
    len: usize,
}

impl Message {
    /// An empty message.
    pub const fn new() -> Message {
        Message { buf: [0; CAPACITY], len: 0 }
    }

    /// The text written so far.
    pub const fn as_str(&self) -> &str {
        let (written, _) = self.buf.split_at(self.len);
        match core::str::from_utf8(written) {
            Ok(s) => s,
            Err(_) => "",
        }
    }

    /// Appends `s`, if it fits.
    pub const fn push(&mut self, s: &str) {
        let bytes = s.as_bytes();
        if self.len + bytes.len() > CAPACITY {
            return;
        }
        let mut i = 0;
        while i < bytes.len() {
            self.buf[self.len + i] = bytes[i];
            i += 1;
        }
        self.len += bytes.len();
    }

    /// Appends `n` in decimal, with `,` between groups of three digits (`16,777,216`).
    pub const fn number(&mut self, n: u64) {
        let mut digits = [0u8; 26];
        let (mut k, mut rest, mut written) = (digits.len(), n, 0);
        loop {
            if written > 0 && written % 3 == 0 {
                k -= 1;
                digits[k] = b',';
            }
            k -= 1;
            digits[k] = b'0' + (rest % 10) as u8;
            rest /= 10;
            written += 1;
            if rest == 0 {
                break;
            }
        }
        let (_, tail) = digits.split_at(k);
        if let Ok(s) = core::str::from_utf8(tail) {
            self.push(s);
        }
    }

    /// Appends a size for people: `70 bytes`, or `8.3 KiB (8,397 bytes)`, `24.0 MiB (25,165,824 bytes)`, the
    /// tenths rounded up so that "at most" stays true.
    pub const fn size(&mut self, bytes: u64) {
        const KIB: u64 = 1024;
        const MIB: u64 = 1024 * 1024;
        if bytes < KIB {
            self.number(bytes);
            self.push(" bytes");
            return;
        }
        let (unit, name) = if bytes < MIB { (KIB, " KiB (") } else { (MIB, " MiB (") };
        let tenths = bytes.saturating_mul(10).div_ceil(unit);
        self.number(tenths / 10);
        self.push(".");
        self.number(tenths % 10);
        self.push(name);
        self.number(bytes);
        self.push(" bytes)");
    }

    /// Appends what has no bound and where: `` `Order.items` holds `Line.notes`, which holds a string without a
    /// length bound (`max_len`) ``.
    pub const fn unbounded(&mut self, u: Unbounded) {
        if let Some((ty, field)) = u.via {
            self.field(ty, field);
            self.push(" holds ");
        }
        if let Some((ty, field)) = u.holder {
            self.field(ty, field);
            self.push(if u.via.is_some() { ", which holds " } else { " holds " });
        }
        self.push(u.reason.describe());
    }

    /// `` `Type.field` ``.
    const fn field(&mut self, ty: &str, field: &str) {
        self.push("`");
        self.push(ty);
        self.push(".");
        self.push(field);
        self.push("`");
    }
}

impl Default for Message {
    fn default() -> Self {
        Message::new()
    }
}

impl std::fmt::Debug for Message {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Budget {
    /// `at most 8.3 KiB (8,397 bytes)`, or `unbounded: `Order.notes` holds a string without a length bound
    /// (`max_len`)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut m = Message::new();
        match *self {
            Budget::AtMost(n) => {
                m.push("at most ");
                m.size(n);
            }
            Budget::Unbounded(u) => {
                m.push("unbounded: ");
                m.unbounded(u);
            }
        }
        f.write_str(m.as_str())
    }
}

impl fmt::Display for Unbounded {
    /// `` `Order.items` holds `Line.notes`, which holds a string without a length bound (`max_len`) ``.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut m = Message::new();
        m.unbounded(*self);
        f.write_str(m.as_str())
    }
}
