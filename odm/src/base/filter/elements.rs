//! Conditions on one array element (from `any` or `pull_where`): whether they stay an element match or can be
//! written as array filters.

use crate::base::error::Result;
use crate::base::error::{Invalid, NamedPath};
use bson::{Bson, Document};

/// A condition built from a path to an array element (by `any` or `pull_where`).
pub(crate) enum Element {
    /// On the element itself: one operator document (`{$gte: 4, $lte: 6}`), or a value it equals.
    Itself(Bson),
    /// On fields of the element (`{p: {$gt: 100}}`).
    Fields(Document),
}

/// True when `d` holds a condition on the element itself (the empty key), at its top level or inside `$and`, `$or`
/// or `$nor`.
fn on_element(d: &Document) -> bool {
    d.iter().any(|(k, v)| match (k.as_str(), v) {
        ("", _) => true,
        ("$and" | "$or" | "$nor", Bson::Array(clauses)) => {
            clauses.iter().any(|c| matches!(c, Bson::Document(c) if on_element(c)))
        }
        _ => false,
    })
}

/// Splits `d` into its conjuncts: the entries of `$and` clauses are conditions of `d` itself (`and` writes two
/// conditions on one key as `$and`).
fn conjuncts(d: Document, out: &mut Vec<(String, Bson)>) {
    for (k, v) in d {
        match (k.as_str(), v) {
            ("$and", Bson::Array(clauses)) if clauses.iter().all(|c| matches!(c, Bson::Document(_))) => {
                for c in clauses {
                    if let Bson::Document(c) = c {
                        conjuncts(c, out);
                    }
                }
            }
            (_, v) => out.push((k, v)),
        }
    }
}

/// Reads a condition built from a path to an element of the array at `at`. Conditions on the element itself come
/// back under the empty key; those joined by `and` merge into one operator document, since `$elemMatch` and `$pull`
/// apply operators to the element only at the top level (`{$and: [{"": …}]}` would look for a field named `""`, and
/// match nothing). `or` and `none_of` of them, or a mix with conditions on the element's fields, cannot be written.
pub(crate) fn element_condition(d: Document, at: &str) -> Result<Element, Invalid> {
    super::refuse_in_element(&d, at)?;
    if !on_element(&d) {
        return Ok(Element::Fields(d));
    }
    let mut parts = Vec::new();
    conjuncts(d, &mut parts);
    if parts.iter().any(|(k, _)| !k.is_empty()) {
        return Err(Invalid::ElementCondition { path: NamedPath::at(at) });
    }
    if let [(_, v)] = parts.as_slice() {
        return Ok(Element::Itself(v.clone()));
    }
    let mut ops = Document::new();
    for (_, v) in parts {
        let entries = match v {
            Bson::Document(o) if !o.is_empty() && o.keys().all(|k| k.starts_with('$')) => o,
            value => bson::doc! { "$eq": value },
        };
        for (name, operand) in entries {
            if ops.contains_key(&name) {
                return Err(Invalid::ElementOperatorTwice { path: NamedPath::at(at), operator: name });
            }
            ops.insert(name, operand);
        }
    }
    Ok(Element::Itself(Bson::Document(ops)))
}
