//! What the schema checker reports per part of the validator: which part fails ([`Check`]) and the documents that
//! fail it at one field ([`Finding`]).

use crate::base::meta::named;
use bson::Bson;
use std::fmt;

pub use crate::base::validator::Check;

/// What a finding of `check` says of its field.
fn what(check: Check) -> &'static str {
    match check {
        Check::Missing => "is missing",
        Check::Invalid => "does not hold the type the model stores",
        Check::Bounds => "is out of its bounds",
        Check::Lowercase => "holds capital letters where the model stores lowercase text",
        Check::Unexpected => "holds keys the model does not declare",
        Check::Counter => "differs from the length of",
        Check::Computed => "differs from what it computes from",
        Check::Other => "fails the validator",
        Check::OlderVersion => "is at an older version the model reads",
        Check::Unreadable => "is at an older version the model cannot read",
    }
}

/// Documents failing one part of the validator at one field.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// Which part fails.
    pub check: Check,
    /// The field's Rust path under the model's name (`Order.items[].price`), or the stored path when the model does
    /// not know it; empty for the document itself.
    pub path: String,
    /// The stored path (`it.p`).
    pub stored_path: String,
    /// For a counter, the Rust path of the array it counts.
    pub array: Option<String>,
    /// For [`Check::OlderVersion`], the stored version (`None`: no version key, read as the oldest).
    pub version: Option<i64>,
    /// For [`Check::Unreadable`], why the first of its documents does not read (the error a typed read or a
    /// migration gives: the field, what was expected).
    pub reason: Option<String>,
    /// The id of the rule the documents break ([`crate::rules`]).
    pub rule: &'static str,
    /// How many documents fail it.
    pub count: u64,
    /// The `_id`s of the first failing documents (at most [`SchemaCheck::samples`](super::SchemaCheck::samples)).
    pub sample_ids: Vec<Bson>,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const RULE: &str = "rule";
        if self.check == Check::OlderVersion {
            let at = match self.version {
                Some(v) => format!("at version {v}"),
                None => "without a version key (read as the oldest version)".to_owned(),
            };
            write!(f, "{} document(s) {at}: an older version the model reads; migrate them", self.count)?;
            write!(f, " ({RULE} `{}`)", self.rule)?;
            return self.samples(f);
        }
        if self.check == Check::Unreadable {
            let at = self.version.map_or_else(|| "without a version key".to_owned(), |v| format!("at version {v}"));
            write!(f, "{} document(s) {at} the model cannot read, so no migration can bring them forward", self.count)?;
            write!(f, " ({RULE} `{}`)", self.rule)?;
            if let Some(reason) = &self.reason {
                write!(f, ": {reason}")?;
            }
            self.samples(f)?;
            return write!(f, "; fix or delete them");
        }
        let field = if self.stored_path.is_empty() {
            "the document".to_owned()
        } else {
            let rust = (self.path != self.stored_path).then_some(self.path.as_str());
            named(rust, &self.stored_path)
        };
        // A set's duplicates are a bound of their own kind: said as what they are.
        let what = match (self.check, self.rule) {
            (Check::Bounds, "array-unique") => "holds a value more than once",
            (check, _) => what(check),
        };
        write!(f, "{} document(s): {field} {what}", self.count)?;
        if let Some(array) = &self.array {
            write!(f, " `{array}`")?;
        }
        // Spelt apart so that only the rules page lists rule ids literally; the ids come from `Check::rule`.
        write!(f, " ({RULE} `{}`)", self.rule)?;
        self.samples(f)
    }
}

impl Finding {
    fn samples(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.sample_ids.is_empty() {
            let ids: Vec<String> = self.sample_ids.iter().map(ToString::to_string).collect();
            write!(f, "; e.g. _id {}", ids.join(", "))?;
        }
        Ok(())
    }
}
