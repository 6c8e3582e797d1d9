//! Case-normalized text (rule [`string-lowercase`](crate::rules#string-lowercase)): MongoDB compares
//! case-sensitively, so fields that should not be, like e-mail addresses, are stored in one case.

use crate::base::diff::{Diff, DiffPath};
use crate::base::path::{Access, Path};
use crate::base::schema::{BsonKind, BsonSchema};
use bson::{doc, Document};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// A string stored in lowercase. Declaring a field `Lowercase` normalizes it everywhere: values are lowercased when
/// built, so inserts, `$set`s and filters (`f.email().eq("Ann@Example.COM")`) all use the same form, and the validator
/// refuses stored values with uppercase ASCII letters.
///
/// ```
/// use odm::Lowercase;
/// let e = Lowercase::from("Ann@Example.COM");
/// assert_eq!(e.as_str(), "ann@example.com");
/// assert_eq!(e, "ANN@example.com".into());
/// ```
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Lowercase(String);

impl Lowercase {
    /// Lowercases `s`.
    pub fn new(s: impl AsRef<str>) -> Self {
        Lowercase(s.as_ref().to_lowercase())
    }

    /// The normalized text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The normalized text, owned.
    pub fn into_string(self) -> String {
        self.0
    }
}

impl From<&str> for Lowercase {
    fn from(s: &str) -> Self {
        Lowercase::new(s)
    }
}

impl From<String> for Lowercase {
    fn from(s: String) -> Self {
        if s.chars().any(char::is_uppercase) {
            Lowercase::new(s)
        } else {
            Lowercase(s)
        }
    }
}

impl From<&String> for Lowercase {
    fn from(s: &String) -> Self {
        Lowercase::new(s)
    }
}

impl AsRef<str> for Lowercase {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Lowercase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl fmt::Display for Lowercase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Serialize for Lowercase {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Lowercase {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(Lowercase::from)
    }
}

impl BsonSchema for Lowercase {
    const KIND: BsonKind = BsonKind::String;
    const SIZE: crate::base::size::Size = crate::base::size::Size::Text;
    type Node<R, W, A: Access> = Path<R, W, A>;
    fn bson_schema() -> Document {
        // `to_lowercase` never leaves an ASCII capital, so this accepts everything odm writes.
        doc! { "bsonType": "string", "pattern": "^[^A-Z]*$" }
    }
    fn diff(old: &Self, new: &Self, at: &mut DiffPath, out: &mut Diff) {
        crate::base::schema::diffs::by_eq(old, new, at, out)
    }
    fn to_bson(value: &Self) -> Result<bson::Bson, bson::error::Error> {
        Ok(bson::Bson::String(value.0.clone()))
    }
    fn into_bson(value: Self) -> Result<bson::Bson, bson::error::Error> {
        Ok(bson::Bson::String(value.0))
    }
}
