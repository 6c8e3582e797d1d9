//! One typed description of a model's validator: its parts, each with the stored path and Rust path it checks, the
//! rule id a failure of it breaks, and the BSON it contributes (as a query filter a document keeps when it keeps
//! that part) — built with the validator document itself, from the model's field table ([`TypeMeta`]; see
//! [`crate::Model::validator_parts`]).
//!
//! The validator is split so that a failure is named at the deepest field that holds it
//! (`Order.lines[].quantity`) and by the rule that actually failed: one part per required key, per field's type,
//! per group of bounds, per closed level, per counter; nested documents and array elements part by part. Which keys
//! a struct requires, which properties it has, whether it is closed and which variants a polymorphic model has are
//! read from the field table, the same properties its schema is written from; each counter's pair from the
//! [`CounterCheck`] the validator was made with; a value's own type and bounds from its fragment (what its type's
//! [`BsonSchema`](crate::BsonSchema) writes, the one description a type gives of its stored values), split by the
//! keyword → rule table ([`KEYWORDS`]), which is here and only here. A validator odm did not make from the table (a
//! hand-written model's, one found on a server) is split from its document the same way, its counter pairs read
//! back from their checks.
//!
//! The schema checker ([`crate::check`]) asks the server which parts stored documents break; a refused write's
//! translator ([`crate::error::ValidationError`]) names a failing counter check by the part that wrote it.

pub(crate) mod object;

use self::object::{checks_under, object, properties};
use crate::base::counters::{counter_pairs, CounterCheck};
use crate::base::meta::{rust_name, TypeMeta};
use bson::{doc, Bson, Document};
use std::sync::OnceLock;

/// Which part of the validator a document breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Check {
    /// A field the model always writes is absent (rule [`type-option-absent`](crate::rules#type-option-absent)).
    Missing,
    /// A field holds another BSON type (or shape: enum values, the values of maps; an array element is named
    /// `Order.lines[]`, a field of one `Order.lines[].quantity`; rule
    /// [`type-one-bson-type`](crate::rules#type-one-bson-type)).
    Invalid,
    /// A field has the right type but breaks its bounds: array items (rule
    /// [`array-bound`](crate::rules#array-bound)), a set holding a value twice
    /// ([`array-unique`](crate::rules#array-unique)) or string length ([`string-length`](crate::rules#string-length)).
    Bounds,
    /// A string holds ASCII capitals where the model stores lowercase text, [`crate::Lowercase`] (rule
    /// [`string-lowercase`](crate::rules#string-lowercase)).
    Lowercase,
    /// A closed document holds keys the model does not declare (rule [`closed-open`](crate::rules#closed-open)).
    Unexpected,
    /// An array counter differs from the array's length (rule [`counter-in-step`](crate::rules#counter-in-step)).
    Counter,
    /// A computed field differs from the sum, minimum or maximum of its array (rule
    /// [`computed-in-step`](crate::rules#computed-in-step)).
    Computed,
    /// The document fails the validator, but no single part explains it: a validator changed on the server (rule
    /// [`model-validation`](crate::rules#model-validation)).
    Other,
    /// The document is at an older version the model still reads (see [`crate::version`]): not corrupt, awaiting
    /// migration (rule [`version-field`](crate::rules#version-field)). Such documents are counted apart, in
    /// [`SchemaReport::older`](crate::check::SchemaReport::older), and not explained part by part.
    OlderVersion,
    /// The document says it is at an older version the model reads, but does not read as that version's shape (a
    /// field its upgrade needs is missing or of another type): a migration cannot store it at the current version,
    /// and sync reports it as unreadable (rule [`version-step`](crate::rules#version-step)). Counted as failing,
    /// with the reason a read gives ([`Finding::reason`](crate::check::Finding::reason)).
    Unreadable,
}

/// The keywords of odm's validators, each with the part a failure of it belongs to and the rule id it breaks, in
/// the order a field's parts are listed. A group of keywords sharing a rule is one part (`maxItems` with
/// `minItems`).
pub const KEYWORDS: &[(&str, Check, &str)] = &[
    ("required", Check::Missing, "type-option-absent"),
    ("bsonType", Check::Invalid, "type-one-bson-type"),
    ("maxItems", Check::Bounds, "array-bound"),
    ("minItems", Check::Bounds, "array-bound"),
    ("uniqueItems", Check::Bounds, "array-unique"),
    ("maxLength", Check::Bounds, "string-length"),
    ("minLength", Check::Bounds, "string-length"),
    // The one `pattern` odm writes refuses ASCII capitals (`odm::Lowercase`).
    ("pattern", Check::Lowercase, "string-lowercase"),
    ("additionalProperties", Check::Unexpected, "closed-open"),
    ("$expr", Check::Counter, "counter-in-step"),
    ("$expr", Check::Computed, "computed-in-step"),
];

impl Check {
    /// The id of the rule the failure breaks, as [`crate::rules`] lists them (for [`Check::Bounds`], the first of
    /// its rules: a [`Part`] says which one).
    pub fn rule(self) -> &'static str {
        match self {
            Check::Other => "model-validation",
            Check::OlderVersion => "version-field",
            Check::Unreadable => "version-step",
            check => KEYWORDS.iter().find(|(_, c, _)| *c == check).map_or("model-validation", |(_, _, rule)| rule),
        }
    }

    /// The part a failure of `keyword` belongs to and the rule it breaks, from [`KEYWORDS`]; `None` for a keyword
    /// odm's validators do not write (`minimum`, `enum`, … in a validator changed on the server).
    pub fn of_keyword(keyword: &str) -> Option<(Check, &'static str)> {
        KEYWORDS.iter().find(|(k, _, _)| *k == keyword).map(|&(_, check, rule)| (check, rule))
    }
}

/// The value keywords split off a field's type part: each group (the keywords of one rule) is a part of its own,
/// checked only on values of the right type.
fn bound_groups() -> impl Iterator<Item = (Check, &'static str, Vec<&'static str>)> {
    let mut groups: Vec<(Check, &'static str, Vec<&'static str>)> = Vec::new();
    for &(keyword, check, rule) in KEYWORDS.iter().filter(|(_, c, _)| matches!(c, Check::Bounds | Check::Lowercase)) {
        match groups.iter_mut().find(|(_, r, _)| *r == rule) {
            Some((_, _, keywords)) => keywords.push(keyword),
            None => groups.push((check, rule, vec![keyword])),
        }
    }
    groups.into_iter()
}

/// One part of a validator, as a query filter that a document satisfies when it keeps that part.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq)]
pub struct Part {
    /// Which kind of part.
    pub check: Check,
    /// The id of the rule a document breaking it breaks ([`crate::rules`]).
    pub rule: &'static str,
    /// The stored path, with `$[]` for the elements of an array (`l.$[].q`), as counters are named; empty for the
    /// document itself.
    pub stored: String,
    /// The Rust path under the model's name (`Order.lines[].quantity`), when the field table names it.
    pub path: Option<String>,
    /// For a counter or a computed field: the stored path of its array.
    pub array: Option<String>,
    /// The BSON this part contributes, as a query filter (`{$jsonSchema: …}` or `{$expr: …}`) a document keeps
    /// when it keeps the part.
    pub filter: Document,
    /// For bounds: the index of the type part of the same field; documents failing that are not counted again.
    pub unless: Option<usize>,
}

impl Part {
    fn new(check: Check, stored: String, filter: Document) -> Part {
        Part { check, rule: check.rule(), stored, path: None, array: None, filter, unless: None }
    }
}

/// A model's validator and its parts: the document a collection holds, and the same validator split into the
/// parts a document can break (split when first asked for: writing the validator needs none).
#[derive(Debug, Clone)]
pub struct ValidatorParts {
    validator: Document,
    meta: Option<&'static TypeMeta>,
    /// The counter checks the validator was made with; `None` for a validator given as a document, whose checks are
    /// read back from it.
    counters: Option<Vec<(String, String, Check)>>,
    parts: OnceLock<Vec<Part>>,
}

impl ValidatorParts {
    /// The validator of a `$jsonSchema` and its counter checks (one per counted array, as
    /// [`crate::Model::counters`] lists them); `meta`, the field table the schema was made from, names the parts'
    /// Rust paths.
    pub fn new(schema: Document, checks: Vec<CounterCheck>, meta: Option<&'static TypeMeta>) -> Self {
        let pairs = checks
            .iter()
            .map(|c| {
                let check = if c.aggregate().is_some() { Check::Computed } else { Check::Counter };
                (c.array().to_owned(), c.counter().to_owned(), check)
            })
            .collect();
        let exprs = checks.into_iter().map(CounterCheck::into_expr).collect();
        ValidatorParts { validator: validator(schema, exprs), meta, counters: Some(pairs), parts: OnceLock::new() }
    }

    /// The validator of the struct (or polymorphic enum) `meta` describes, as a model's validator: its
    /// `$jsonSchema` and one `$expr` per counted array, both made from the field table.
    pub fn of(meta: &'static TypeMeta) -> Self {
        let mut checks = Vec::new();
        checks_under(meta, "$", 0, &mut checks);
        Self::new(object(meta, false), checks, Some(meta))
    }

    /// A validator given as a document (found on a server, say), split the same way, without Rust paths.
    pub fn from_validator(validator: &Document) -> Self {
        ValidatorParts { validator: validator.clone(), meta: None, counters: None, parts: OnceLock::new() }
    }

    /// The validator document (`{$jsonSchema: …}` with its counter checks), as a collection holds it.
    pub fn validator(&self) -> &Document {
        &self.validator
    }

    /// The validator document, moved out.
    pub fn into_validator(self) -> Document {
        self.validator
    }

    /// The parts, in order: each object's required keys, then each field (its type, its bounds, its nested fields
    /// or elements), then the object's closedness; a polymorphic model's variants; the counters.
    pub fn parts(&self) -> &[Part] {
        self.parts.get_or_init(|| split(&self.validator, self.counters.as_deref(), self.meta))
    }

    /// The counter (or computed field) part whose check is `check` (an `$expr` as the validator holds it).
    pub fn counter(&self, check: &Bson) -> Option<&Part> {
        self.parts()
            .iter()
            .find(|p| matches!(p.check, Check::Counter | Check::Computed) && p.filter.get("$expr") == Some(check))
    }
}

/// The parts of `validator`: its `$jsonSchema` (a `title` names a version and checks nothing), then its counter
/// checks, each comparing the pair of `counters` at its position (read back from the check when the validator came
/// as a document), with Rust paths named through `meta`.
fn split(
    validator: &Document,
    counters: Option<&[(String, String, Check)]>,
    meta: Option<&'static TypeMeta>,
) -> Vec<Part> {
    let mut parts = Vec::new();
    if let Ok(schema) = validator.get_document("$jsonSchema") {
        let mut untitled = schema.clone();
        untitled.remove("title");
        // The schema the field table makes is read from the table; any other from the document.
        match meta.filter(|m| object(m, false) == untitled) {
            Some(meta) => struct_parts(meta, false, &[], &mut parts),
            None => {
                object_parts(schema, &[], &mut parts);
                branch_parts(schema, &mut parts);
            }
        }
    }
    let mut checks: Vec<&Bson> = validator.get("$expr").into_iter().collect();
    if let Ok(clauses) = validator.get_array("$and") {
        checks.extend(clauses.iter().filter_map(|c| c.as_document()?.get("$expr")));
    }
    for (i, check) in checks.into_iter().enumerate() {
        // A check odm did not just make is read for its pair (each check odm writes compares one).
        let (array, counter, kind) = match counters.and_then(|c| c.get(i)) {
            Some(pair) => pair.clone(),
            None => {
                let (array, counter) = counter_pairs(check).into_iter().next().unwrap_or_default();
                (array, counter, Check::Counter)
            }
        };
        let mut part = Part::new(kind, counter, doc! { "$expr": check.clone() });
        part.array = Some(array);
        parts.push(part);
    }
    for part in &mut parts {
        part.path = rust_name(meta, &part.stored);
    }
    parts
}

/// The validator document of a `$jsonSchema` and its counter checks: one check as `$expr`, several as an `$and` of
/// `$expr` clauses (the server names the failing clause, so each counter is named on its own).
pub(crate) fn validator(schema: Document, mut checks: Vec<Bson>) -> Document {
    let mut v = doc! { "$jsonSchema": schema };
    match checks.len() {
        0 => {}
        1 => {
            v.insert("$expr", checks.remove(0));
        }
        _ => {
            let clauses: Vec<Bson> = checks.into_iter().map(|e| Bson::from(doc! { "$expr": e })).collect();
            v.insert("$and", clauses);
        }
    }
    v
}

/// Where a nested schema applies: under a property of a document, or to every element of an array.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Seg<'a> {
    Key(&'a str),
    Items,
}

/// The keywords of a document's own shape, split into parts of their own when the document is split.
const OBJECT_KEYS: &[&str] = &["properties", "required", "additionalProperties"];

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
            value_parts(sub, &under(key), None, out);
        }
    }
    if schema.get_bool("additionalProperties").ok() == Some(false) {
        let known: Document =
            properties.into_iter().flatten().map(|(k, _)| (k.clone(), Bson::Document(doc! {}))).collect();
        let filter = nested(at, doc! { "properties": known, "additionalProperties": false });
        out.push(Part::new(Check::Unexpected, stored(at), filter));
    }
}

/// The parts of the struct `meta` describes at `at`, inside a document that is `within` closed, read from its field
/// table: which keys are required, which properties it has (each value's own parts from its fragment), whether it
/// is closed. A polymorphic model's variants are parts of their own at the root.
fn struct_parts(meta: &'static TypeMeta, within: bool, at: &[Seg], out: &mut Vec<Part>) {
    if !meta.variants.is_empty() {
        let schema = object(meta, within);
        object_parts(&schema, at, out);
        if at.is_empty() {
            variant_parts(meta, meta.closed.unwrap_or(within), out);
        }
        return;
    }
    let closed = meta.closed.unwrap_or(within);
    let properties = properties(meta, closed);
    let under = |key| at.iter().copied().chain([Seg::Key(key)]).collect::<Vec<_>>();
    for p in properties.iter().filter(|p| p.required) {
        let filter = nested(at, doc! { "required": [p.key] });
        out.push(Part::new(Check::Missing, stored(&under(p.key)), filter));
    }
    for p in &properties {
        value_parts(&p.schema, &under(p.key), p.meta.map(|m| (m, closed)), out);
    }
    if closed {
        let known: Document = properties.iter().map(|p| (p.key.to_owned(), Bson::Document(doc! {}))).collect();
        let filter = nested(at, doc! { "properties": known, "additionalProperties": false });
        out.push(Part::new(Check::Unexpected, stored(at), filter));
    }
}

/// The parts of each variant of a polymorphic model, from its field table: each applies only to the documents
/// carrying the variant's tag value, so a document is explained by its own variant's shape.
fn variant_parts(meta: &'static TypeMeta, closed: bool, out: &mut Vec<Part>) {
    for variant in meta.variants {
        let Some((tag, value)) = variant.tag else { continue };
        let mut parts = Vec::new();
        struct_parts(variant, closed, &[], &mut parts);
        guarded(parts, tag, &Bson::from(value), out);
    }
}

/// `parts` of one variant, each guarded by its discriminator: it holds where `tag` is not `value`.
fn guarded(parts: Vec<Part>, tag: &str, value: &Bson, out: &mut Vec<Part>) {
    let offset = out.len();
    // The branch's own tag parts always hold where they apply; kept, so `unless` indexes stay right.
    for mut part in parts {
        part.filter = doc! { "$or": [{ tag: { "$ne": value.clone() } }, part.filter] };
        part.unless = part.unless.map(|i| i + offset);
        out.push(part);
    }
}

/// The parts of the value schema at `at`: its type (with anything not split further), then each group of bounds of
/// values of that type, then a nested document's fields or an array's elements. `table` is the field table (and
/// the closedness around it) of the struct the value is, or whose elements it holds: a nested document whose
/// fragment is that struct's schema is split by the table.
fn value_parts(sub: &Document, at: &[Seg], table: Option<(&'static TypeMeta, bool)>, out: &mut Vec<Part>) {
    let is_object = sub.get_document("properties").is_ok();
    let items = sub.get_document("items").ok();
    let mut shape = sub.clone();
    let groups: Vec<_> = bound_groups().collect();
    for (_, _, keys) in &groups {
        keys.iter().for_each(|k| drop(shape.remove(k)));
    }
    if is_object {
        OBJECT_KEYS.iter().for_each(|k| drop(shape.remove(k)));
    }
    if items.is_some() {
        shape.remove("items");
    }
    let type_at = out.len();
    out.push(Part::new(Check::Invalid, stored(at), nested(at, shape.clone())));
    for (check, rule, keys) in groups {
        let mut bounded = shape.clone();
        for key in keys.iter().copied() {
            if let Some(v) = sub.get(key) {
                bounded.insert(key, v.clone());
            }
        }
        if bounded.len() == shape.len() {
            continue;
        }
        let mut part = Part::new(check, stored(at), nested(at, bounded));
        part.rule = rule;
        part.unless = Some(type_at);
        out.push(part);
    }
    if is_object {
        match table.filter(|(meta, within)| object(meta, *within) == *sub) {
            Some((meta, within)) => struct_parts(meta, within, at, out),
            None => object_parts(sub, at, out),
        }
    }
    if let Some(items) = items {
        let inner: Vec<Seg> = at.iter().copied().chain([Seg::Items]).collect();
        value_parts(items, &inner, table, out);
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
        guarded(parts, &tag, &value, out);
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
            "$expr": crate::base::schema::build::counter_check("$it", "$ic"),
        };
        let parts = ValidatorParts::from_validator(&validator).parts().to_vec();
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
        let parts = ValidatorParts::from_validator(&validator).parts().to_vec();
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

    #[test]
    fn a_model_s_parts_come_from_its_field_table_with_rust_paths_and_its_validator() {
        use crate::base::meta::tests::ORDER;
        let described = ValidatorParts::of(&ORDER);
        let mut typed = Vec::new();
        checks_under(&ORDER, "$", 0, &mut typed);
        let checks: Vec<Bson> = typed.into_iter().map(CounterCheck::into_expr).collect();
        // The validator the description holds is the model's: its `$jsonSchema` and its one counter check.
        assert_eq!(described.validator(), &doc! { "$jsonSchema": object(&ORDER, false), "$expr": checks[0].clone() });
        let summary: Vec<(Check, &str, Option<&str>, &str)> =
            described.parts().iter().map(|p| (p.check, p.stored.as_str(), p.path.as_deref(), p.rule)).collect();
        assert!(
            summary.contains(&(Check::Missing, "ic", Some("Order.item_count"), "type-option-absent")),
            "{summary:?}"
        );
        assert!(summary.contains(&(Check::Invalid, "it", Some("Order.items"), "type-one-bson-type")), "{summary:?}");
        // The counter part is found by the check the validator holds, with the array it counts.
        let counter = described.counter(&checks[0]).expect("the counter part");
        assert_eq!((counter.stored.as_str(), counter.array.as_deref()), ("ic", Some("it")));
        assert_eq!(counter.rule, "counter-in-step");
        assert!(described.counter(&Bson::from(doc! { "$gt": [1, 0] })).is_none());
        // Read from the field table, the parts are those the document splits into (named in Rust terms besides).
        let split = ValidatorParts::from_validator(described.validator());
        let unnamed: Vec<Part> = described.parts().iter().map(|p| Part { path: None, ..p.clone() }).collect();
        assert_eq!(unnamed, split.parts());
    }

    #[test]
    fn each_check_reads_its_rule_from_the_one_keyword_table() {
        assert_eq!(Check::Bounds.rule(), "array-bound");
        assert_eq!(Check::Unexpected.rule(), "closed-open");
        assert_eq!(Check::Other.rule(), "model-validation");
        let groups: Vec<(&str, Vec<&str>)> = bound_groups().map(|(_, rule, keys)| (rule, keys)).collect();
        assert_eq!(
            groups,
            [
                ("array-bound", vec!["maxItems", "minItems"]),
                ("array-unique", vec!["uniqueItems"]),
                ("string-length", vec!["maxLength", "minLength"]),
                ("string-lowercase", vec!["pattern"]),
            ]
        );
    }
}
