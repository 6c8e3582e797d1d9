//! How the validator learns each field's stored type: a fact every stage reads (rules, schema and path
//! generation), resolved once per field ([`super::resolve::field`]) from what these decide.

use super::rules::{self, Rule};
use super::ty::{self, TyKind};

/// The `bsonType` aliases the server accepts.
pub const BSON_TYPES: &[&str] = &[
    "double",
    "string",
    "object",
    "array",
    "binData",
    "objectId",
    "bool",
    "date",
    "null",
    "regex",
    "javascript",
    "int",
    "timestamp",
    "long",
    "decimal",
    "minKey",
    "maxKey",
];

/// How the validator learns a field's stored type.
#[derive(PartialEq, Eq)]
pub enum Source {
    /// From the field type's `BsonSchema` impl.
    Trait,
    /// Fixed by a serde converter (`with`/`serde_as`) or `#[odm(bson_type)]`.
    Fixed(String),
    /// `#[odm(mixed)]`: any type accepted (explicit opt-out of `type-one-bson-type`).
    Mixed,
}

/// What a known serde converter writes, or why odm cannot use it (and the rule that says so).
pub fn converter_type(path: &str) -> Result<&'static str, (Rule, &'static str)> {
    let p = path.replace(' ', "");
    let has = |s: &str| p.contains(s);
    // `serde_as(as = "Vec<X>")` applies `X` to each element: the field is an array, not an `X`.
    if let Ok(t) = syn::parse_str::<syn::Type>(&p) {
        if let TyKind::Array { .. } | TyKind::Map { .. } = ty::classify(ty::unwrap_option(&t)) {
            return Err((rules::TYPE_CONVERTER, "odm reads a converter applied to the whole field (or inside `Option<...>`), not one applied \
                        to each element of an array or map; store the elements as BSON types (`Vec<odm::bson::DateTime>`), \
                        or declare the field's type with `#[odm(bson_type = \"...\")]`"));
        }
    }
    if has("AsRfc3339String") || has("rfc3339") || has("Rfc3339") && !has("FromRfc3339String") {
        Err((
            rules::DATE_CHRONO,
            "it writes the date as a string, but dates must be stored as BSON dates; store `odm::bson::DateTime`, or \
             convert chrono with `odm::bson::serde_helpers::datetime::FromChrono04DateTime`",
        ))
    } else if has("ts_seconds") || has("ts_milliseconds") || has("ts_microseconds") || has("ts_nanoseconds") {
        Err((
            rules::DATE_CHRONO,
            "it writes the date as a number, but dates must be stored as BSON dates; use \
             `odm::bson::serde_helpers::datetime::FromChrono04DateTime` instead",
        ))
    } else if has("FromChrono04DateTime")
        || has("FromRfc3339String")
        || has("FromI64")
        || has("FromJiff02Timestamp")
        || has("FromTime03OffsetDateTime")
    {
        Ok("date")
    } else if has("serde_bytes") || has("uuid_1::AsBinary") || has("AsBinary") {
        Ok("binData")
    } else if has("FromHexString") {
        Ok("objectId")
    } else if has("AsHexString") {
        Ok("string")
    } else if has("AsI32") {
        Ok("int")
    } else if has("AsI64") {
        Ok("long")
    } else if has("AsF64") {
        Ok("double")
    } else {
        Err((
            rules::TYPE_CONVERTER,
            "odm cannot tell which BSON type it writes; declare it with `#[odm(bson_type = \"...\")]`",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::converter_type;

    #[test]
    fn converters_decide_the_stored_type() {
        let dt = "odm::bson::serde_helpers::datetime::";
        assert_eq!(converter_type(&format!("{dt}FromChrono04DateTime")), Ok("date"));
        assert_eq!(converter_type(&format!("Option<{dt}FromChrono04DateTime>")), Ok("date"));
        assert_eq!(converter_type(&format!("{dt}FromRfc3339String")), Ok("date"));
        assert_eq!(converter_type("bson::serde_helpers::object_id::FromHexString"), Ok("objectId"));
        assert!(converter_type(&format!("{dt}AsRfc3339String")).unwrap_err().1.contains("string"));
        assert!(converter_type("chrono::serde::ts_seconds").unwrap_err().1.contains("number"));
        assert!(converter_type(&format!("Vec<{dt}FromChrono04DateTime>")).unwrap_err().1.contains("each element"));
        assert!(converter_type("my_mod").unwrap_err().1.contains(crate::internals::symbol::BSON_TYPE.as_str()));
    }
}
