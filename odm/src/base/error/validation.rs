//! A validator's rejection (code 121) as field-level failures: the types and their text.

use bson::Document;
use std::fmt;

/// A document rejected by the collection validator, explained field by field.
#[derive(Debug, Clone)]
pub struct ValidationError {
    /// The model's Rust type name.
    pub model: &'static str,
    /// Each failing rule, by Rust field path.
    pub failures: Vec<FieldFailure>,
    /// The server's `errInfo`, as sent.
    pub details: Option<Document>,
}

/// One failing rule of a [`ValidationError`].
#[derive(Debug, Clone, PartialEq)]
pub struct FieldFailure {
    /// The Rust path (`items[2].price`); empty for the document itself.
    pub path: String,
    /// The stored key path (`it.2.p`).
    pub stored_path: String,
    /// The rule that failed (`bsonType`, `required`, `maxItems`, `additionalProperties`, `$expr`, …).
    pub rule: String,
    /// What the rule expects (e.g. the BSON type), when the server says.
    pub expected: Option<String>,
    /// What the document had (e.g. the BSON type found; a string's length, not the string), when the server says.
    pub actual: Option<String>,
    /// For a document that matches no variant of a polymorphic model (or of an embedded tagged enum): the variant
    /// (its tag value, `click`) whose shape this failure is of. `None` for a failure every variant shares, and
    /// everywhere else.
    pub variant: Option<String>,
}

impl FieldFailure {
    /// The id of odm's rule the failure breaks ([`crate::rules`]), read from the one keyword table of the
    /// validator's description ([`crate::schema::parts::KEYWORDS`]): `maxItems` breaks `array-bound`, `$expr`
    /// `counter-in-step`. A keyword odm's validators do not write (the validator was changed on the server) breaks
    /// `model-validation`.
    pub fn rule_id(&self) -> &'static str {
        // A computed field's check is an `$expr` like a counter's: what it expects tells them apart.
        if self.rule == "$expr" && self.expected.as_deref().is_some_and(crate::base::computed::describes) {
            return crate::base::validator::Check::Computed.rule();
        }
        crate::base::validator::Check::of_keyword(&self.rule)
            .map_or(crate::base::validator::Check::Other.rule(), |(_, rule)| rule)
    }
}

impl fmt::Display for FieldFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = if self.path.is_empty() { "(document)" } else { &self.path };
        write!(f, "{path}: {}", self.rule)?;
        match (&self.expected, &self.actual) {
            (Some(e), Some(a)) => write!(f, " (expected {e}, found {a})"),
            (Some(e), None) => write!(f, " (expected {e})"),
            (None, Some(a)) => write!(f, " (found {a})"),
            (None, None) => Ok(()),
        }
    }
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: document failed validation", self.model)?;
        // A variant's failures go together, after a label: `as click: …, …; as purchase: …`.
        let mut group: Option<&str> = None;
        // Bounded: a document may fail at every element of a long array; `failures` holds them all.
        for (i, failure) in self.failures.iter().enumerate().take(SHOWN) {
            let variant = failure.variant.as_deref();
            let same_group = i > 0 && variant.is_some() && variant == group;
            f.write_str(if i == 0 {
                ": "
            } else if same_group {
                ", "
            } else {
                "; "
            })?;
            if let (Some(v), false) = (variant, same_group) {
                write!(f, "as {v}: ")?;
            }
            group = variant;
            write!(f, "{failure}")?;
        }
        match self.failures.len().saturating_sub(SHOWN) {
            0 => Ok(()),
            more => write!(f, "; … and {more} more (see `failures`)"),
        }
    }
}

/// The most failures a [`ValidationError`]'s text names.
const SHOWN: usize = 20;

impl std::error::Error for ValidationError {}
