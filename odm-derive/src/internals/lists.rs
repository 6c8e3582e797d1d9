//! The small languages written inside string attributes: an index's `keys`, `partial` and `weights`, the model's
//! `shard_key`, and a query's `eq`, `sort` and `range`. All are comma-separated entries, and an error about one name
//! in them is reported here, at that name.
//!
//! Stable Rust cannot point inside a string literal (`Literal::subspan` is nightly-only and returns `None` on
//! stable), so such an error underlines the whole literal and its message says which entry it is about ("unknown
//! field `stauts` in the 2nd key of `keys`"). On a compiler that can, it underlines the name itself.

use super::ctxt::Ctxt;
use super::rules::Rule;
use super::symbol::{self, Symbol};
use proc_macro2::{Span, TokenTree};
use quote::ToTokens;
use std::ops::Range;

/// One small language: the attribute that holds it and what its entries are, for messages.
pub struct Lang {
    /// The attribute's name: `keys`.
    pub attr: Symbol,
    /// What one entry is called: `key`.
    pub entry: &'static str,
}

/// `index(keys = "merchant, -created_at")`.
pub const KEYS: Lang = Lang { attr: symbol::KEYS, entry: "key" };
/// `index(partial = "email exists, amount > 0")`.
pub const PARTIAL: Lang = Lang { attr: symbol::PARTIAL, entry: "condition" };
/// `index(weights = "title:10, body:2")`.
pub const WEIGHTS: Lang = Lang { attr: symbol::WEIGHTS, entry: "entry" };
/// `shard_key = "region, customer:hashed"`.
pub const SHARD_KEY: Lang = Lang { attr: symbol::SHARD_KEY, entry: "field" };
/// `query(eq = "merchant, status")`.
pub const EQ: Lang = Lang { attr: symbol::EQ, entry: "field" };
/// `query(sort = "-created_at")`.
pub const SORT: Lang = Lang { attr: symbol::SORT, entry: "key" };
/// `query(range = "amount")`.
pub const RANGE: Lang = Lang { attr: symbol::RANGE, entry: "field" };

/// The comma-separated entries of `text`, trimmed; a comma inside a 'quoted string' belongs to its entry.
pub fn entries(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut start, mut quoted) = (0, false);
    for (i, c) in text.char_indices() {
        match c {
            '\'' => quoted = !quoted,
            ',' if !quoted => {
                out.push(text[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(text[start..].trim());
    out
}

/// An error about one part of a string attribute's value.
#[derive(Debug)]
pub struct PartError {
    /// What the message is about (`unknown field `x``): where the entry is goes right after it.
    subject: String,
    /// The rest of the message, what is wrong and how to fix it.
    detail: String,
    /// The part of the value at fault, as a slice of it (see [`PartError::at`]).
    at: Range<usize>,
    /// Whether the message should say which entry: not when the subject quotes the whole entry already.
    locate: bool,
    /// The rule the error reports.
    rule: Rule,
}

impl PartError {
    /// An error about `part`, a slice of the value `text`: "{subject} in the 2nd key of `keys`{detail}".
    pub fn at(rule: Rule, text: &str, part: &str, subject: impl Into<String>, detail: impl Into<String>) -> Self {
        PartError { subject: subject.into(), detail: detail.into(), at: range_in(text, part), locate: true, rule }
    }

    /// An error about `part` whose message already quotes the entry, so it need not say where it is.
    pub fn quoting(rule: Rule, text: &str, part: &str, msg: impl Into<String>) -> Self {
        PartError { subject: msg.into(), detail: String::new(), at: range_in(text, part), locate: false, rule }
    }

    /// The same error about the value `text` as a whole (whose part `part` still is).
    pub fn within(self, text: &str, part: &str) -> Self {
        let offset = range_in(text, part).start;
        PartError { at: self.at.start + offset..self.at.end + offset, ..self }
    }

    /// The message, with where its entry stands in the value `text` of `lang`.
    pub fn message(&self, text: &str, lang: &Lang) -> String {
        let place = if self.locate { location(text, self.at.start, lang) } else { String::new() };
        format!("{}{place}{}", self.subject, self.detail)
    }

    /// Reports the error at its part of `lit`, the string literal (or tokens of one) holding `lang`.
    pub fn report(&self, cx: &Ctxt, lit: impl ToTokens, lang: &Lang) {
        let tokens = lit.into_token_stream();
        let literal = match tokens.clone().into_iter().collect::<Vec<_>>().as_slice() {
            [TokenTree::Literal(l)] => Some(l.clone()),
            _ => None,
        };
        let text = literal.as_ref().and_then(|l| syn::parse2::<syn::LitStr>(l.to_token_stream()).ok());
        let Some((literal, text)) = literal.zip(text) else {
            cx.error_spanned_by(tokens, self.rule, format!("{}{}", self.subject, self.detail));
            return;
        };
        let msg = self.message(&text.value(), lang);
        match span_within(&literal, self.at.clone()) {
            Some(span) => cx.error_at(span, self.rule, msg),
            None => cx.error_spanned_by(tokens, self.rule, msg),
        }
    }
}

/// Where `part`, a slice of `text`, lies in it (all of `text` when `part` is not a slice of it).
pub fn range_in(text: &str, part: &str) -> Range<usize> {
    let start = part.as_ptr().addr().wrapping_sub(text.as_ptr().addr());
    if start.checked_add(part.len()).is_some_and(|end| end <= text.len()) {
        start..start + part.len()
    } else {
        0..text.len()
    }
}

/// " in the 2nd key of `keys`": which entry of `text` holds byte `at`; nothing when there is only one.
pub fn location(text: &str, at: usize, lang: &Lang) -> String {
    let all = entries(text);
    let index = all.iter().rposition(|e| range_in(text, e).start <= at).unwrap_or(0);
    if all.len() < 2 {
        return String::new();
    }
    format!(" in the {} {} of `{}`", ordinal(index + 1), lang.entry, lang.attr)
}

/// `1st`, `2nd`, `3rd`, `4th`, …, `11th`, …, `21st`.
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// The span of bytes `at` of a string literal's value, where the compiler can point inside a literal. `None` on
/// stable Rust, and for a literal with escapes (its value's bytes are not its source's).
pub fn span_within(lit: &proc_macro2::Literal, at: Range<usize>) -> Option<Span> {
    let src = lit.to_string();
    let open = match src.strip_prefix('r') {
        Some(raw) => 1 + raw.find('"')? + 1,
        None if src.starts_with('"') && !src.contains('\\') => 1,
        None => return None,
    };
    if at.is_empty() {
        return None;
    }
    lit.subspan(open + at.start..open + at.end)
}

#[cfg(test)]
mod tests {
    use super::{entries, location, ordinal, range_in, PartError, KEYS, PARTIAL};
    use crate::internals::rules::PATH_FIELD;

    #[test]
    fn commas_inside_quotes_stay_in_the_entry() {
        assert_eq!(entries("a = 'x, y', b >= 1"), ["a = 'x, y'", "b >= 1"]);
        assert_eq!(entries(" a exists "), ["a exists"]);
        assert_eq!(entries("a = ',', b = ''"), ["a = ','", "b = ''"]);
        assert_eq!(entries("a,,b"), ["a", "", "b"]);
    }

    #[test]
    fn a_part_is_found_by_position_not_by_text() {
        let text = "stauts, -stauts";
        let second = entries(text)[1].strip_prefix('-').unwrap();
        assert_eq!(range_in(text, second), 9..15);
        assert_eq!(range_in(text, "stauts"), 0..text.len(), "not a slice of the text");
    }

    #[test]
    fn the_message_says_which_entry() {
        let text = "merchant, status, stauts";
        let e = PartError::at(PATH_FIELD, text, &text[18..], "unknown field `stauts`", ": paths use Rust field names");
        assert_eq!(
            e.message(text, &KEYS),
            "unknown field `stauts` in the 3rd key of `keys`: paths use Rust field names"
        );
        let one = "stauts exists";
        let e = PartError::at(PATH_FIELD, one, &one[..6], "unknown field `stauts`", "");
        assert_eq!(e.message(one, &PARTIAL), "unknown field `stauts`");
        let e = PartError::quoting(PATH_FIELD, text, &text[18..], "`stauts` is odd");
        assert_eq!(e.message(text, &KEYS), "`stauts` is odd");
    }

    #[test]
    fn within_shifts_to_the_whole_value() {
        let text = "a exists, line.nme exists";
        let entry = entries(text)[1];
        let e = PartError::at(PATH_FIELD, entry, &entry[..8], "`line.nme`", "").within(text, entry);
        assert_eq!(e.at, 10..18);
        assert_eq!(location(text, e.at.start, &PARTIAL), " in the 2nd condition of `partial`");
    }

    #[test]
    fn ordinals() {
        let got: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111].into_iter().map(ordinal).collect();
        assert_eq!(got, ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th"]);
    }
}
