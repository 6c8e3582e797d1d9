//! What differs between a collection's live validator and the one its model wants, keyword by keyword: a changed
//! validator is shown as the paths and keywords added, removed or changed ([`Action::validator_changes`](super::Action::validator_changes)), not only
//! as "replace validator", so a DBA reviewing a plan or a `verify` sees what a hand edit changed.
//!
//! The comparison walks both `$jsonSchema` trees: `properties` by name (a property only one side declares is added
//! or removed whole), `required` by key, `items` and the schemas of `oneOf`/`anyOf`/`allOf` position by position,
//! every other keyword by value (numbers by value: `80` and `NumberLong(80)` are the same bound). Keys beside
//! `$jsonSchema` (the `$expr` checks of counters) are compared whole.

use crate::base::index::same_value;
use bson::{Bson, Document};
use std::fmt;

/// Whether the model's validator adds, removes or changes a keyword of the live one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChangeKind {
    /// The model's validator has it; the live one does not.
    Added,
    /// The live validator has it; the model's does not.
    Removed,
    /// Both have it, with other values.
    Changed,
}

impl ChangeKind {
    /// `added`, `removed` or `changed`, as the JSON of a plan names it.
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeKind::Added => "added",
            ChangeKind::Removed => "removed",
            ChangeKind::Changed => "changed",
        }
    }
}

/// One difference between a live validator and the model's ([`Action::validator_changes`](super::Action::validator_changes)).
#[derive(Clone, Debug, PartialEq)]
pub struct ValidatorChange {
    /// Where in the validator document: `$jsonSchema.properties.n.maxLength`.
    pub path: String,
    /// The stored field the keyword constrains (`n`, `it[].q`); empty for the document itself or for a key beside
    /// `$jsonSchema`.
    pub field: String,
    /// The keyword: `maxLength`, `bsonType`, `required` (the field's key in its parent's list), `properties` (the
    /// field declared or not), or a key beside `$jsonSchema` (`$expr`).
    pub keyword: String,
    /// Added, removed or changed.
    pub kind: ChangeKind,
    /// The live value (`None` when added; for `required` and `properties`, the field's name or schema).
    pub live: Option<Bson>,
    /// The model's value (`None` when removed).
    pub wanted: Option<Bson>,
}

impl fmt::Display for ValidatorChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.field.is_empty() { "the document".to_owned() } else { format!("field `{}`", self.field) };
        match (self.keyword.as_str(), self.kind) {
            ("required", ChangeKind::Added) => write!(f, "{at}: required by the model, optional in the live validator"),
            ("required", ChangeKind::Removed) => {
                write!(f, "{at}: required by the live validator, optional in the model")
            }
            ("properties", ChangeKind::Added) => write!(f, "{at}: declared by the model, not in the live validator"),
            ("properties", ChangeKind::Removed) => write!(f, "{at}: in the live validator, not declared by the model"),
            (keyword, kind) => {
                let value = |v: &Option<Bson>| v.as_ref().map_or_else(|| "none".to_owned(), short);
                write!(f, "{at}: {keyword} {} -> {} ({})", value(&self.live), value(&self.wanted), kind.as_str())
            }
        }
    }
}

/// A value as a line shows it: relaxed Extended JSON, cut at 80 characters.
fn short(value: &Bson) -> String {
    let text = value.clone().into_relaxed_extjson().to_string();
    match text.char_indices().nth(80) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text,
    }
}

/// The most changes a report's text lists under one action; the JSON lists all.
const SHOWN: usize = 12;

/// Under a report's line for an action, a line per validator change of it (at most [`SHOWN`], then how many more),
/// indented: for the text of a plan and of a sync report. The action's own text stays one line (a script's comment,
/// a log).
pub(crate) fn write_changes(f: &mut fmt::Formatter<'_>, changes: &[ValidatorChange]) -> fmt::Result {
    for change in changes.iter().take(SHOWN) {
        writeln!(f, "    {change}")?;
    }
    if changes.len() > SHOWN {
        writeln!(f, "    … and {} more (the JSON plan's `validatorChanges` lists every one)", changes.len() - SHOWN)?;
    }
    Ok(())
}

/// What differs between validator documents `live` and `wanted`, in `wanted`'s order, then what only `live` has.
pub fn validator_changes(live: &Document, wanted: &Document) -> Vec<ValidatorChange> {
    let mut out = Vec::new();
    for (key, w) in wanted {
        match (key.as_str(), live.get(key), w) {
            ("$jsonSchema", Some(Bson::Document(l)), Bson::Document(w)) => schema(l, w, key, "", &mut out),
            (_, Some(l), w) if !same_value(l, w) => out.push(change(key, "", key, Some(l), Some(w))),
            (_, None, w) => out.push(change(key, "", key, None, Some(w))),
            _ => {}
        }
    }
    for (key, l) in live.iter().filter(|(k, _)| !wanted.contains_key(k.as_str())) {
        out.push(change(key, "", key, Some(l), None));
    }
    out
}

/// A change at `path` of `keyword` for `field`, its kind told by which side has a value.
fn change(path: &str, field: &str, keyword: &str, live: Option<&Bson>, wanted: Option<&Bson>) -> ValidatorChange {
    let kind = match (live, wanted) {
        (None, _) => ChangeKind::Added,
        (_, None) => ChangeKind::Removed,
        _ => ChangeKind::Changed,
    };
    ValidatorChange {
        path: path.to_owned(),
        field: field.to_owned(),
        keyword: keyword.to_owned(),
        kind,
        live: live.cloned(),
        wanted: wanted.cloned(),
    }
}

/// `field` joined with `key` (`it` and `q`: `it.q`).
fn child(field: &str, key: &str) -> String {
    if field.is_empty() {
        key.to_owned()
    } else {
        format!("{field}.{key}")
    }
}

/// The differences of two schemas at `path` (in the validator) describing `field`.
fn schema(live: &Document, wanted: &Document, path: &str, field: &str, out: &mut Vec<ValidatorChange>) {
    let keys = wanted.keys().chain(live.keys().filter(|k| !wanted.contains_key(k.as_str())));
    for key in keys {
        let at = format!("{path}.{key}");
        match (key.as_str(), live.get(key), wanted.get(key)) {
            (_, Some(l), Some(w)) if same_value(l, w) => {}
            ("properties", Some(Bson::Document(l)), Some(Bson::Document(w))) => properties(l, w, &at, field, out),
            ("required", l, w) if is_names(l) && is_names(w) => required(l, w, &at, field, out),
            ("items", Some(Bson::Document(l)), Some(Bson::Document(w))) => {
                schema(l, w, &at, &format!("{field}[]"), out)
            }
            ("oneOf" | "anyOf" | "allOf", Some(Bson::Array(l)), Some(Bson::Array(w)))
                if l.len() == w.len() && l.iter().chain(w).all(|s| s.as_document().is_some()) =>
            {
                for (i, (l, w)) in l.iter().zip(w).enumerate() {
                    if let (Some(l), Some(w)) = (l.as_document(), w.as_document()) {
                        schema(l, w, &format!("{at}[{i}]"), field, out);
                    }
                }
            }
            (_, l, w) => out.push(change(&at, field, key, l, w)),
        }
    }
}

/// True for an absent keyword or an array of names (`required`).
fn is_names(value: Option<&Bson>) -> bool {
    value.is_none_or(|v| matches!(v, Bson::Array(a) if a.iter().all(|n| n.as_str().is_some())))
}

/// The names of a `required` list (none when absent).
fn names(value: Option<&Bson>) -> Vec<&str> {
    match value {
        Some(Bson::Array(a)) => a.iter().filter_map(Bson::as_str).collect(),
        _ => Vec::new(),
    }
}

/// The differences of two `required` lists: each key one side requires and the other does not.
fn required(live: Option<&Bson>, wanted: Option<&Bson>, path: &str, field: &str, out: &mut Vec<ValidatorChange>) {
    let (live, wanted) = (names(live), names(wanted));
    for name in wanted.iter().filter(|n| !live.contains(n)) {
        out.push(change(path, &child(field, name), "required", None, Some(&Bson::from(*name))));
    }
    for name in live.iter().filter(|n| !wanted.contains(n)) {
        out.push(change(path, &child(field, name), "required", Some(&Bson::from(*name)), None));
    }
}

/// The differences of two `properties` documents: a property only one side declares, whole; the others compared.
fn properties(live: &Document, wanted: &Document, path: &str, field: &str, out: &mut Vec<ValidatorChange>) {
    for (name, w) in wanted {
        let at = format!("{path}.{name}");
        match (live.get(name), w) {
            (Some(Bson::Document(l)), Bson::Document(w)) => schema(l, w, &at, &child(field, name), out),
            (Some(l), w) if !same_value(l, w) => {
                out.push(change(&at, &child(field, name), "properties", Some(l), Some(w)))
            }
            (None, w) => out.push(change(&at, &child(field, name), "properties", None, Some(w))),
            _ => {}
        }
    }
    for (name, l) in live.iter().filter(|(n, _)| !wanted.contains_key(n.as_str())) {
        out.push(change(&format!("{path}.{name}"), &child(field, name), "properties", Some(l), None));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    fn validator(name_max: i32, total: &str, required: &[&str]) -> Document {
        doc! { "$jsonSchema": {
            "bsonType": "object",
            "required": required,
            "properties": {
                "n": { "bsonType": "string", "maxLength": name_max },
                "t": { "bsonType": total },
                "it": { "bsonType": "array", "items": { "bsonType": "object", "properties": { "q": { "bsonType": "int", "minimum": 1 } } } },
            },
        } }
    }

    #[test]
    fn each_keyword_that_differs_is_named_with_its_field() {
        let wanted = validator(80, "long", &["n", "t"]);
        let mut live = validator(100, "string", &["n"]);
        live.get_document_mut("$jsonSchema")
            .unwrap()
            .get_document_mut("properties")
            .unwrap()
            .get_document_mut("it")
            .unwrap()
            .get_document_mut("items")
            .unwrap()
            .get_document_mut("properties")
            .unwrap()
            .get_document_mut("q")
            .unwrap()
            .remove("minimum");
        let changes = validator_changes(&live, &wanted);
        let lines: Vec<String> = changes.iter().map(ToString::to_string).collect();
        assert_eq!(
            lines,
            [
                "field `t`: required by the model, optional in the live validator",
                "field `n`: maxLength 100 -> 80 (changed)",
                "field `t`: bsonType \"string\" -> \"long\" (changed)",
                "field `it[].q`: minimum none -> 1 (added)",
            ]
        );
        assert_eq!(changes[1].path, "$jsonSchema.properties.n.maxLength");
        assert_eq!(changes[3].path, "$jsonSchema.properties.it.items.properties.q.minimum");
        assert_eq!((changes[3].kind, changes[3].live.as_ref()), (ChangeKind::Added, None));
    }

    fn properties(v: &mut Document) -> &mut Document {
        v.get_document_mut("$jsonSchema").unwrap().get_document_mut("properties").unwrap()
    }

    #[test]
    fn numbers_compare_by_value_and_whole_properties_and_keys_are_added_or_removed() {
        let wanted = validator(80, "long", &["n"]);
        let mut live = wanted.clone();
        properties(&mut live).get_document_mut("n").unwrap().insert("maxLength", 80_i64);
        assert!(validator_changes(&live, &wanted).is_empty(), "80 and NumberLong(80) are one bound");
        properties(&mut live).insert("x", doc! { "bsonType": "bool" });
        properties(&mut live).remove("t");
        live.insert("$expr", doc! { "$eq": [1, 1] });
        let lines: Vec<String> = validator_changes(&live, &wanted).iter().map(ToString::to_string).collect();
        assert_eq!(
            lines,
            [
                "field `t`: declared by the model, not in the live validator",
                "field `x`: in the live validator, not declared by the model",
                "the document: $expr {\"$eq\":[1,1]} -> none (removed)",
            ]
        );
    }
}
