//! The `weights` language of a text index (`"title:10, body:2"`): each entry's field and weight. Whether the field
//! is a text key of the index is a rule, checked against the resolved keys.

use super::field::FieldFacts;
use super::path::resolve_path;
use crate::internals::ast::Field;
use crate::internals::index_keys::{Key, KeyKind};
use crate::internals::lists::{entries, range_in, PartError};
use crate::internals::rules;
use std::ops::Range;

/// One `field:weight` entry.
pub struct Weight<'a> {
    /// The field as written (trimmed), as bytes of the value: the rules compare it with the text keys' labels.
    pub field: Range<usize>,
    /// From 1 to 99999.
    pub weight: i32,
    /// The field's path, resolved (as a text key); `None` when it names no field (a rule reports it).
    pub key: Option<Key<'a>>,
}

/// Parses `weights = "title:10, body:2"`; a malformed entry is an error of its own, and the others still parse.
pub fn parse_weights<'a>(
    fields: &'a [Field<'a>],
    facts: &FieldFacts,
    text: &str,
) -> Vec<Result<Weight<'a>, PartError>> {
    entries(text).into_iter().map(|entry| parse_entry(fields, facts, text, entry)).collect()
}

fn parse_entry<'a>(
    fields: &'a [Field<'a>],
    facts: &FieldFacts,
    text: &str,
    entry: &str,
) -> Result<Weight<'a>, PartError> {
    let Some((field, weight)) = entry.split_once(':').map(|(f, n)| (f.trim(), n.trim())) else {
        let msg = format!("`{entry}`: weights are `text_field:weight`, e.g. `weights = \"title:10, body:2\"`");
        return Err(PartError::quoting(rules::INDEX_TEXT, text, entry, msg));
    };
    let weight = match weight.parse::<i32>() {
        Ok(n) if (1..=99_999).contains(&n) => n,
        _ => {
            let msg = format!("`{entry}`: a weight is an integer from 1 to 99999");
            return Err(PartError::quoting(rules::INDEX_TEXT, text, weight, msg));
        }
    };
    let at = range_in(text, field);
    let key = resolve_path(fields, facts, field).ok().map(|(field, nested, first_is_array)| Key {
        field,
        nested,
        first_is_array,
        kind: KeyKind::Text,
        at: at.clone(),
    });
    Ok(Weight { field: at, weight, key })
}
