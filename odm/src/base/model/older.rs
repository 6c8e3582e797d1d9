//! What a versioned model knows of its older shapes (their schemas, for the validator while such documents remain),
//! and how a validator names its version.

use crate::base::meta::TypeMeta;
use crate::base::schema::BsonSchema;
use bson::Document;
use std::fmt;

/// One older shape a versioned model still reads, as its validator needs it: generated for each type in
/// `older(…)`.
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct OlderShape {
    /// The version documents of this shape carry.
    pub version: u32,
    /// The Rust type's full path, so that sync can tell a model's versions apart from unrelated models.
    pub type_name: fn() -> &'static str,
    /// The shape's `$jsonSchema` fragment.
    pub schema: fn() -> Document,
    /// The shape's field table (its counted arrays).
    pub meta: fn() -> Option<&'static TypeMeta>,
}

impl fmt::Debug for OlderShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (version {})", (self.type_name)(), self.version)
    }
}

/// An older shape the validator can describe: one deriving `odm::Embedded` (or a former model).
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`{Self}` is listed as an older version, but has no schema for the validator to accept its documents by \
               (rule `version-step`)",
    label = "`{Self}` does not derive `odm::Embedded`",
    note = "while documents of older versions remain, the validator accepts each listed version in its own shape: \
            add `#[derive(odm::Embedded)]` to `{Self}` (with the short keys its documents were written with)"
)]
pub trait OlderVersion {
    /// The shape's schema.
    fn schema() -> Document;
    /// The shape's field table.
    fn meta() -> Option<&'static TypeMeta>;
}

impl<T: BsonSchema> OlderVersion for T {
    fn schema() -> Document {
        T::bson_schema()
    }
    fn meta() -> Option<&'static TypeMeta> {
        T::type_meta()
    }
}

/// The entry of `older(…)`'s type `T` at `version`; `T` needs the schema the rollout validator accepts it by.
#[doc(hidden)]
pub const fn shape<T: OlderVersion + serde::de::DeserializeOwned>(version: u32) -> OlderShape {
    OlderShape { version, type_name: std::any::type_name::<T>, schema: T::schema, meta: T::meta }
}

/// The `title` of the current version's validator.
pub(crate) fn title(current: u32) -> String {
    format!("version {current}")
}

/// The version a validator was generated for (its `title`), `None` for a validator odm did not version.
///
/// ```
/// let v = odm::bson::doc! { "$jsonSchema": { "title": "version 3", "bsonType": "object" } };
/// assert_eq!(odm::version::version_of_validator(&v), Some(3));
/// assert_eq!(odm::version::version_of_validator(&odm::bson::doc! { "$jsonSchema": {} }), None);
/// ```
pub fn version_of_validator(validator: &Document) -> Option<u32> {
    let title = validator.get_document("$jsonSchema").ok()?.get_str("title").ok()?;
    let digits = title.strip_prefix("version ")?;
    let end = digits.find(|c: char| !c.is_ascii_digit()).unwrap_or(digits.len());
    digits[..end].parse().ok()
}
