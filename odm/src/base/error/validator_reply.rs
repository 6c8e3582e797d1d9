//! The code-121 parser: reads the server's `errInfo` (which clause, which field, what was expected) into
//! [`ValidationError`]'s field failures, named by Rust paths.

use super::validation::{FieldFailure, ValidationError};

use crate::base::meta::{rust_name, TypeMeta};
use crate::base::validator::{Check, ValidatorParts};
use bson::{Bson, Document};

impl ValidationError {
    /// Parses the server's `errInfo` (defensively: its shape is documented as human-oriented and may change).
    ///
    /// A counter out of step fails an `$expr` clause, and the server says which clause but not why. Each clause of
    /// odm's validators checks one counted array (see [`crate::Model::validator`]), so the failure is reported on that
    /// counter, by the pair the clause compares: `Company.depts[].member_count` must equal the length of
    /// `Company.depts[].members`. (The clause checks every element, so no index is known.)
    pub fn parse(model: &'static str, meta: Option<&'static TypeMeta>, details: Option<Document>) -> Self {
        let mut failures = Vec::new();
        if let Some(info) = details.as_ref().and_then(|d| d.get_document("details").ok()) {
            walk(info, &mut Vec::new(), meta, &mut failures);
        }
        for failure in &mut failures {
            failure.path = rust_name(meta, &failure.stored_path).unwrap_or_else(|| failure.stored_path.clone());
        }
        ValidationError { model, failures, details }
    }
}

fn join(path: &[String]) -> String {
    path.join(".")
}

/// The most values of a list a failure names (`1 or 2 or 3 … and 997 more`): the server's reply may carry a whole
/// array (an `enum` of a thousand values, the array a rule considered), and a message must stay readable.
const LISTED: usize = 5;

/// The most characters of one value a failure shows.
const VALUE_CHARS: usize = 80;

/// A value as a failure shows it, bounded: at most [`LISTED`] values of a list, each cut to [`VALUE_CHARS`].
fn bson_text(b: &Bson) -> String {
    match b {
        Bson::Array(a) => {
            let shown: Vec<String> = a.iter().take(LISTED).map(value_text).collect();
            match a.len().saturating_sub(LISTED) {
                0 => shown.join(" or "),
                more => format!("{} … and {more} more", shown.join(" or ")),
            }
        }
        other => value_text(other),
    }
}

/// One value, cut to [`VALUE_CHARS`] characters.
fn value_text(b: &Bson) -> String {
    let text = match b {
        Bson::String(s) => s.clone(),
        other => other.to_string(),
    };
    match text.char_indices().nth(VALUE_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

fn push(out: &mut Vec<FieldFailure>, path: &[String], rule: &str, expected: Option<String>, actual: Option<String>) {
    let failure = FieldFailure {
        path: String::new(),
        stored_path: join(path),
        rule: rule.to_owned(),
        expected,
        actual,
        variant: None,
    };
    out.push(failure);
}

/// Adds `failure` unless the same failure (of the same variant) is listed already: nested schemas and variants
/// often report one cause twice.
fn push_once(out: &mut Vec<FieldFailure>, failure: FieldFailure) {
    if !out.contains(&failure) {
        out.push(failure);
    }
}

/// Whether `f` says only that a `oneOf` branch is another variant: its tag (one level below the branch, at `depth`)
/// is not the branch's value.
fn tag_miss(f: &FieldFailure, depth: usize) -> bool {
    f.rule == "enum" && f.stored_path.split('.').filter(|s| !s.is_empty()).count() == depth
}

/// A document matching no branch of a `oneOf` (no variant's tag, or none at all): what every branch says is listed
/// once, the rest under the variant it belongs to, each failure once.
fn variants_apart(
    branches: &[(usize, Vec<FieldFailure>)],
    path: &[String],
    meta: Option<&'static TypeMeta>,
    out: &mut Vec<FieldFailure>,
) {
    let depth = path.len() + 1;
    let in_every = |f: &FieldFailure| branches.len() > 1 && branches.iter().all(|(_, b)| b.contains(f));
    // Shared failures first, unlabelled, so each variant's group holds what sets it apart.
    for f in branches.first().map(|(_, b)| b.as_slice()).unwrap_or_default() {
        if in_every(f) {
            push_once(out, f.clone());
        }
    }
    for (index, failures) in branches {
        // The variant's name: the value its tag must hold, from its tag miss, or from the model's variants.
        let from_tag = failures.iter().find(|f| tag_miss(f, depth)).and_then(|f| f.expected.clone());
        let from_meta = || Some(meta?.variants.get(*index)?.tag?.1.to_owned()).filter(|_| path.is_empty());
        let label = from_tag.or_else(from_meta).unwrap_or_else(|| format!("variant {}", index + 1));
        for f in failures.iter().filter(|f| !in_every(f)) {
            // A wrong tag is said once by the tag's own `enum` (every variant's value), not once per variant.
            let said = |g: &FieldFailure| g.rule == "enum" && g.stored_path == f.stored_path && g.variant.is_none();
            if tag_miss(f, depth) && out.iter().any(said) {
                continue;
            }
            push_once(out, FieldFailure { variant: (branches.len() > 1).then(|| label.clone()), ..f.clone() });
        }
    }
}

/// The documents in the array `key` of `node` (none when absent).
fn documents<'a>(node: &'a Document, key: &str) -> Vec<&'a Document> {
    node.get_array(key).map(|a| a.iter().filter_map(Bson::as_document).collect()).unwrap_or_default()
}

/// Walks one node of `errInfo.details` (an operator report) at stored `path`; `meta` names counted arrays.
fn walk(node: &Document, path: &mut Vec<String>, meta: Option<&'static TypeMeta>, out: &mut Vec<FieldFailure>) {
    let op = node.get_str("operatorName").unwrap_or("");
    let each = |key: &str| documents(node, key);
    match op {
        "$jsonSchema" | "$and" | "allOf" | "anyOf" | "oneOf" => {
            let before = out.len();
            for d in each("schemaRulesNotSatisfied") {
                walk(d, path, meta, out);
            }
            for clause in each("clausesNotSatisfied") {
                if let Ok(d) = clause.get_document("details") {
                    walk(d, path, meta, out);
                }
            }
            // Tagged enums: every variant reports; keep the variants whose tag matched (no `enum` failure one level
            // down), since the others only say "wrong variant".
            let branches: Vec<(usize, Vec<FieldFailure>)> = each("schemasNotSatisfied")
                .into_iter()
                .enumerate()
                .map(|(i, d)| {
                    let mut found = Vec::new();
                    for r in documents(d, "details") {
                        walk(r, path, meta, &mut found);
                    }
                    (d.get_i32("index").map_or(i, |i| i as usize), found)
                })
                .collect();
            let depth = path.len() + 1;
            let matching: Vec<(usize, Vec<FieldFailure>)> =
                branches.iter().filter(|(_, b)| !b.iter().any(|f| tag_miss(f, depth))).cloned().collect();
            match matching.as_slice() {
                [(_, one)] => one.iter().for_each(|f| push_once(out, f.clone())),
                // No tag, or several variants without one: each is a candidate, told apart.
                [_, _, ..] => variants_apart(&matching, path, meta, out),
                [] => variants_apart(&branches, path, meta, out),
            }
            if out.len() == before && op != "$jsonSchema" && op != "$and" {
                push(out, path, op, None, node.get_str("reason").ok().map(str::to_owned));
            }
        }
        "properties" => {
            for p in each("propertiesNotSatisfied") {
                let Ok(name) = p.get_str("propertyName") else { continue };
                path.push(name.to_owned());
                for d in documents(p, "details") {
                    walk(d, path, meta, out);
                }
                path.pop();
            }
        }
        "required" => {
            for missing in node.get_array("missingProperties").map(|a| a.to_vec()).unwrap_or_default() {
                if let Bson::String(k) = missing {
                    path.push(k);
                    push(out, path, "required", Some("present".into()), Some("missing".into()));
                    path.pop();
                }
            }
        }
        // A map value: each failing entry names its key.
        "patternProperties" => {
            let before = out.len();
            for entry in each("details") {
                let Ok(key) = entry.get_str("propertyName") else { continue };
                path.push(key.to_owned());
                for d in documents(entry, "details") {
                    walk(d, path, meta, out);
                }
                path.pop();
            }
            if out.len() == before {
                push(out, path, op, None, node.get_str("reason").ok().map(str::to_owned));
            }
        }
        "additionalProperties" if node.contains_key("failingProperty") => {
            let key = node.get_str("failingProperty").unwrap_or("?").to_owned();
            path.push(key);
            let before = out.len();
            for d in each("details") {
                walk(d, path, meta, out);
            }
            if out.len() == before {
                push(out, path, "additionalProperties", None, node.get_str("reason").ok().map(str::to_owned));
            }
            path.pop();
        }
        "additionalProperties" => {
            for extra in node.get_array("additionalProperties").map(|a| a.to_vec()).unwrap_or_default() {
                if let Bson::String(k) = extra {
                    // A map refuses only keys MongoDB cannot address; a closed document refuses every unknown key.
                    let (expected, actual) = match crate::base::keys::defect(&k) {
                        Some(why) => (format!("a key that can be stored as data ({why})"), format!("key `{k}`")),
                        None => ("no such key (closed document)".to_owned(), "extra key".to_owned()),
                    };
                    path.push(k);
                    push(out, path, "additionalProperties", Some(expected), Some(actual));
                    path.pop();
                }
            }
        }
        "bsonType" | "type" => {
            let expected = node.get_document("specifiedAs").ok().and_then(|s| s.get(op)).map(bson_text);
            let actual = node.get_str("consideredType").ok().map(str::to_owned);
            push(out, path, op, expected, actual);
        }
        "items" => {
            let before = out.len();
            if let Ok(i) = node.get_i32("itemIndex") {
                path.push(i.to_string());
                for d in each("details") {
                    walk(d, path, meta, out);
                }
                path.pop();
            } else {
                for d in each("details") {
                    walk(d, path, meta, out);
                }
            }
            if out.len() == before {
                push(out, path, "items", None, node.get_str("reason").ok().map(str::to_owned));
            }
        }
        "maxItems" | "minItems" | "maxLength" | "minLength" | "minimum" | "maximum" | "enum" | "maxProperties"
        | "minProperties" | "pattern" | "uniqueItems" => {
            let expected = match op {
                "uniqueItems" => Some("each value once".to_owned()),
                _ => node.get_document("specifiedAs").ok().and_then(|s| s.get(op)).map(bson_text),
            };
            let actual = match (op, node.get_str("consideredValue")) {
                // The length is what the rule compares (in code points, as the server counts), and the string may be
                // long or private.
                ("maxLength" | "minLength", Ok(s)) => Some(format!("length {}", s.chars().count())),
                // The value held twice, not the whole array (which may hold thousands).
                ("uniqueItems", _) => Some(match node.get("duplicatedValue") {
                    Some(dup) => format!("{} held twice", value_text(dup)),
                    None => "a value held twice".to_owned(),
                }),
                _ => node.get("numberOfItems").or_else(|| node.get("consideredValue")).map(bson_text),
            };
            push(out, path, op, expected, actual);
        }
        "$expr" => {
            let check = node.get_document("specifiedAs").ok().and_then(|s| s.get("$expr"));
            // The model's own check names its pair; one the model does not write (a validator written by an earlier
            // version, or changed on the server) is read for the pairs it compares.
            let part = check.and_then(|c| ValidatorParts::of(meta?).counter(c).cloned());
            let rust = |stored: &str| rust_name(meta, stored).unwrap_or_else(|| stored.to_owned());
            if let Some((part, (aggregate, values))) = part
                .as_ref()
                .zip(check.and_then(crate::base::computed::read))
                .filter(|(p, _)| p.check == Check::Computed)
            {
                let array = part.array.as_deref().unwrap_or_default();
                let values = match crate::base::computed::element_field(&values, array) {
                    _ if array.contains(", ") => array.split(", ").map(rust).collect::<Vec<_>>().join(" and "),
                    Some(of) => rust(&format!("{array}.$[].{of}")),
                    None => format!("the elements of {}", rust(array)),
                };
                out.push(FieldFailure {
                    path: String::new(),
                    stored_path: part.stored.clone(),
                    rule: "$expr".to_owned(),
                    expected: Some(format!("the {} of {values}", aggregate.name())),
                    actual: Some("a different value".to_owned()),
                    variant: None,
                });
                return;
            }
            let described = part.and_then(|part| Some(vec![(part.array?, part.stored)]));
            let pairs = described.or_else(|| check.map(crate::base::counters::counter_pairs)).unwrap_or_default();
            match pairs.as_slice() {
                [(array, counter)] => out.push(FieldFailure {
                    path: String::new(),
                    stored_path: counter.clone(),
                    rule: "$expr".to_owned(),
                    expected: Some(format!("the length of {}", rust(array))),
                    actual: Some("a different value".to_owned()),
                    variant: None,
                }),
                // A validator written by an earlier version checks every pair in one expression.
                [_, ..] => {
                    let each: Vec<String> =
                        pairs.iter().map(|(a, c)| format!("{} == the length of {}", rust(c), rust(a))).collect();
                    push(out, path, "$expr", Some(each.join(", ")), Some("a counter out of step".into()));
                }
                [] => push(
                    out,
                    path,
                    "$expr",
                    Some("every array counter equal to its array's size".into()),
                    Some("a counter out of step".into()),
                ),
            }
        }
        "" => {}
        other => {
            let before = out.len();
            for d in each("details") {
                walk(d, path, meta, out);
            }
            if out.len() == before {
                push(out, path, other, None, node.get_str("reason").ok().map(str::to_owned));
            }
        }
    }
}
