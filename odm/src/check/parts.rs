//! A model's validator split into parts, each a query filter that a document keeps when it keeps that part of the
//! validator: one per required key, one per field's type, one per field's bounds, one per closed level, one per
//! counter. Nested documents and array elements are split too, so a failure is named at the deepest field that
//! holds it (`Order.lines[].quantity`) and by the rule that actually failed.

use super::finding::Check;
use crate::schema::counter_pairs;
use bson::{doc, Bson, Document};

/// One part of a validator, as a query filter that a document satisfies when it keeps that part.
#[derive(Debug, PartialEq)]
pub(super) struct Part {
    pub(super) check: Check,
    pub(super) rule: &'static str,
    /// The stored path, with `$[]` for the elements of an array (`l.$[].q`), as counters are named.
    pub(super) stored: String,
    /// For a counter: the stored path of its array.
    pub(super) array: Option<String>,
    pub(super) filter: Document,
    /// For bounds: the index of the type part of the same field; documents failing that are not counted again.
    pub(super) unless: Option<usize>,
}

impl Part {
    fn new(check: Check, stored: String, filter: Document) -> Part {
        Part { check, rule: check.rule(), stored, array: None, filter, unless: None }
    }
}

/// Where a nested schema applies: under a property of a document, or to every element of an array.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Seg<'a> {
    Key(&'a str),
    Items,
}

/// The keywords that bound a value of the right type, grouped by the rule each group belongs to. Each group is one
/// part, checked only on values of the right type.
const BOUNDS: &[(Check, &str, &[&str])] = &[
    (Check::Bounds, "array-bound", &["maxItems", "minItems"]),
    (Check::Bounds, "string-length", &["maxLength", "minLength"]),
    // The one `pattern` odm writes refuses ASCII capitals (`odm::Lowercase`).
    (Check::Lowercase, "string-lowercase", &["pattern"]),
];

/// The keywords of a document's own shape, split into parts of their own when the document is split.
const OBJECT_KEYS: &[&str] = &["properties", "required", "additionalProperties"];

/// The parts of a model's validator (`{$jsonSchema: …}` plus its counter `$expr` checks): each required key, each
/// property (nested documents and array elements part by part), each closed level, each counter.
pub(super) fn parts(validator: &Document) -> Vec<Part> {
    let mut out = Vec::new();
    if let Ok(schema) = validator.get_document("$jsonSchema") {
        object_parts(schema, &[], &mut out);
        branch_parts(schema, &mut out);
    }
    let mut exprs: Vec<&Bson> = validator.get("$expr").into_iter().collect();
    if let Ok(clauses) = validator.get_array("$and") {
        exprs.extend(clauses.iter().filter_map(|c| c.as_document()?.get("$expr")));
    }
    for expr in exprs {
        let (array, counter) = counter_pairs(expr).into_iter().next().unwrap_or_default();
        let mut part = Part::new(Check::Counter, counter, doc! { "$expr": expr.clone() });
        part.array = Some(array);
        out.push(part);
    }
    out
}

/// The stored path of `at`: keys joined by dots, `$[]` for array elements.
fn stored(at: &[Seg]) -> String {
    let segs: Vec<&str> = at
        .iter()
        .map(|s| match s {
            Seg::Key(k) => k,
            Seg::Items => "$[]",
        })
        .collect();
    segs.join(".")
}

/// The parts of the object schema at `at` (each nested schema applies only where its parents exist).
fn object_parts(schema: &Document, at: &[Seg], out: &mut Vec<Part>) {
    let under = |key| at.iter().copied().chain([Seg::Key(key)]).collect::<Vec<_>>();
    if let Ok(required) = schema.get_array("required") {
        for key in required.iter().filter_map(Bson::as_str) {
            let filter = nested(at, doc! { "required": [key] });
            out.push(Part::new(Check::Missing, stored(&under(key)), filter));
        }
    }
    let properties = schema.get_document("properties").ok();
    for (key, sub) in properties.into_iter().flatten() {
        if let Some(sub) = sub.as_document() {
            value_parts(sub, &under(key), out);
        }
    }
    if schema.get_bool("additionalProperties").ok() == Some(false) {
        let known: Document =
            properties.into_iter().flatten().map(|(k, _)| (k.clone(), Bson::Document(doc! {}))).collect();
        let filter = nested(at, doc! { "properties": known, "additionalProperties": false });
        out.push(Part::new(Check::Unexpected, stored(at), filter));
    }
}

/// The parts of the value schema at `at`: its type (with anything not split further), then each group of bounds of
/// values of that type, then a nested document's fields or an array's elements.
fn value_parts(sub: &Document, at: &[Seg], out: &mut Vec<Part>) {
    let object = sub.get_document("properties").is_ok();
    let items = sub.get_document("items").ok();
    let mut shape = sub.clone();
    for (_, _, keys) in BOUNDS {
        keys.iter().for_each(|k| drop(shape.remove(k)));
    }
    if object {
        OBJECT_KEYS.iter().for_each(|k| drop(shape.remove(k)));
    }
    if items.is_some() {
        shape.remove("items");
    }
    let type_at = out.len();
    out.push(Part::new(Check::Invalid, stored(at), nested(at, shape.clone())));
    for (check, rule, keys) in BOUNDS {
        let mut bounded = shape.clone();
        for key in keys.iter().copied() {
            if let Some(v) = sub.get(key) {
                bounded.insert(key, v.clone());
            }
        }
        if bounded.len() == shape.len() {
            continue;
        }
        let mut part = Part::new(*check, stored(at), nested(at, bounded));
        part.rule = rule;
        part.unless = Some(type_at);
        out.push(part);
    }
    if object {
        object_parts(sub, at, out);
    }
    if let Some(items) = items {
        let inner: Vec<Seg> = at.iter().copied().chain([Seg::Items]).collect();
        value_parts(items, &inner, out);
    }
}

/// The parts of each branch of a `oneOf` tied to a discriminator (a polymorphic model's variants): each applies only
/// to the documents carrying the branch's tag value, so a document is explained by its own variant's shape.
fn branch_parts(schema: &Document, out: &mut Vec<Part>) {
    let Ok(branches) = schema.get_array("oneOf") else { return };
    for branch in branches.iter().filter_map(Bson::as_document) {
        let Some((tag, value)) = discriminator(branch) else { continue };
        let mut parts = Vec::new();
        object_parts(branch, &[], &mut parts);
        let offset = out.len();
        // The branch's own tag parts always hold where they apply; kept, so `unless` indexes stay right.
        for mut part in parts {
            part.filter = doc! { "$or": [{ tag.clone(): { "$ne": value.clone() } }, part.filter] };
            part.unless = part.unless.map(|i| i + offset);
            out.push(part);
        }
    }
}

/// The key and value a `oneOf` branch requires: a required property allowing exactly one value.
fn discriminator(branch: &Document) -> Option<(String, Bson)> {
    let required = branch.get_array("required").ok()?;
    let properties = branch.get_document("properties").ok()?;
    properties.iter().find_map(|(key, sub)| {
        let values = sub.as_document()?.get_array("enum").ok()?;
        let is_required = required.iter().any(|r| r.as_str() == Some(key));
        (is_required && values.len() == 1).then(|| (key.clone(), values[0].clone()))
    })
}

/// `{$jsonSchema: …}` applying `inner` to the value at `at`, and only where it exists (a nested document's fields
/// apply to documents, an element's schema to arrays).
fn nested(at: &[Seg], inner: Document) -> Document {
    let schema = at.iter().rev().fold(inner, |inner, seg| match seg {
        Seg::Key(key) => doc! { "properties": { *key: inner } },
        Seg::Items => doc! { "items": inner },
    });
    doc! { "$jsonSchema": schema }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_validator_splits_into_parts_by_field() {
        let validator = doc! {
            "$jsonSchema": {
                "bsonType": "object",
                "required": ["_id", "c"],
                "properties": {
                    "_id": { "bsonType": "objectId" },
                    "c": { "bsonType": "object", "required": ["n"], "properties": { "n": { "bsonType": "string" } },
                           "additionalProperties": false },
                    "it": { "bsonType": "array", "maxItems": 3_i64 },
                },
                "additionalProperties": false,
            },
            "$expr": crate::schema::build::counter_check("$it", "$ic"),
        };
        let parts = parts(&validator);
        let summary: Vec<(Check, &str)> = parts.iter().map(|p| (p.check, p.stored.as_str())).collect();
        assert_eq!(
            summary,
            [
                (Check::Missing, "_id"),
                (Check::Missing, "c"),
                (Check::Invalid, "_id"),
                (Check::Invalid, "c"),
                (Check::Missing, "c.n"),
                (Check::Invalid, "c.n"),
                (Check::Unexpected, "c"),
                (Check::Invalid, "it"),
                (Check::Bounds, "it"),
                (Check::Unexpected, ""),
                (Check::Counter, "ic"),
            ]
        );
        // A nested part applies only where its parent exists.
        assert_eq!(
            parts[4].filter,
            doc! { "$jsonSchema": { "properties": { "c": { "required": ["n"] } } } },
            "{:?}",
            parts[4]
        );
    }

    #[test]
    fn array_elements_and_string_rules_are_parts_of_their_own() {
        let validator = doc! {
            "$jsonSchema": {
                "bsonType": "object",
                "properties": {
                    "l": { "bsonType": "array", "maxItems": 5_i64, "items": {
                        "bsonType": "object", "required": ["q"],
                        "properties": { "q": { "bsonType": "int" } },
                    } },
                    "e": { "bsonType": "string", "maxLength": 40_i64, "pattern": "^[^A-Z]*$" },
                },
            },
        };
        let parts = parts(&validator);
        let summary: Vec<(Check, &str, &str)> = parts.iter().map(|p| (p.check, p.stored.as_str(), p.rule)).collect();
        assert_eq!(
            summary,
            [
                (Check::Invalid, "l", "type-one-bson-type"),
                (Check::Bounds, "l", "array-bound"),
                (Check::Invalid, "l.$[]", "type-one-bson-type"),
                (Check::Missing, "l.$[].q", "type-option-absent"),
                (Check::Invalid, "l.$[].q", "type-one-bson-type"),
                (Check::Invalid, "e", "type-one-bson-type"),
                (Check::Bounds, "e", "string-length"),
                (Check::Lowercase, "e", "string-lowercase"),
            ]
        );
        // The array's bound leaves its elements to their own parts; an element's field applies inside arrays only.
        assert_eq!(
            parts[1].filter,
            doc! { "$jsonSchema": { "properties": { "l": { "bsonType": "array", "maxItems": 5_i64 } } } }
        );
        assert_eq!(
            parts[4].filter,
            doc! { "$jsonSchema": { "properties": { "l": { "items": { "properties": { "q": { "bsonType": "int" } } } } } } }
        );
        assert_eq!(
            parts[7].filter,
            doc! { "$jsonSchema": { "properties": { "e": { "bsonType": "string", "pattern": "^[^A-Z]*$" } } } }
        );
        assert_eq!((parts[6].unless, parts[7].unless), (Some(5), Some(5)));
    }
}
