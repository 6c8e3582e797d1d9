//! The `partial` language of an index (`"email exists, amount > 0, status = 'paid'"`): each condition resolved to
//! a field path, a server operator and a value.

use super::field::FieldFacts;
use super::path::resolve_path;
use crate::internals::ast::Field;
use crate::internals::index_keys::{Key, KeyKind};
use crate::internals::lists::{entries, range_in, PartError};
use crate::internals::rules;
use crate::internals::source::BSON_TYPES;

/// One condition of a partial filter.
pub struct Condition<'a> {
    /// The path, resolved (as an ascending key: only its field and nested segment matter).
    pub key: Key<'a>,
    /// The server operator (`$gte`).
    pub op: &'static str,
    /// The operand.
    pub value: PartialValue,
}

/// Operators a partial filter accepts, as written in the DSL.
const PARTIAL_OPS: &str = "`exists`, `type`, `=`, `>`, `>=`, `<`, `<=`";

/// Parses the partial filter DSL: `"email exists, amount > 0, kind type string, status = 'paid'"`, into each
/// condition's resolved path, operator and value.
pub fn parse_partial<'a>(
    fields: &'a [Field<'a>],
    facts: &FieldFacts,
    text: &str,
) -> Result<Vec<Condition<'a>>, PartError> {
    let mut out = Vec::new();
    for entry in entries(text) {
        let mut parts = entry.splitn(3, ' ').map(str::trim);
        let (Some(path), Some(op)) = (parts.next(), parts.next()) else {
            return Err(PartError::quoting(
                rules::INDEX_PARTIAL,
                text,
                entry,
                format!(
                    "`{entry}` is not a condition: write `field exists`, `field type string` or `field >= 10`, with \
                     spaces around the operator"
                ),
            ));
        };
        let (field, nested, first_is_array) = resolve_path(fields, facts, path).map_err(|e| e.within(text, path))?;
        let key = Key { field, nested, first_is_array, kind: KeyKind::Asc, at: range_in(text, path) };
        let value = parts.next().unwrap_or("");
        let fail = |part: &str, msg: String| Err(PartError::quoting(rules::INDEX_PARTIAL, text, part, msg));
        let parse = |v: &str| {
            PartialValue::parse(entry, v).map_err(|msg| PartError::quoting(rules::INDEX_PARTIAL, text, v, msg))
        };
        let (op, v) = match op {
            "exists" if value.is_empty() => ("$exists", PartialValue::Bool(true)),
            "exists" => {
                return fail(
                    value,
                    format!(
                        "`{entry}`: write `{path} exists` alone; a partial index can only require that a field exists"
                    ),
                )
            }
            "type" => {
                if !BSON_TYPES.contains(&value) {
                    let types: Vec<String> = BSON_TYPES.iter().map(|t| format!("`{t}`")).collect();
                    return fail(
                        value,
                        format!("unknown BSON type `{value}` in `{entry}`: expected one of {}", types.join(", ")),
                    );
                }
                ("$type", PartialValue::Str(value.to_owned()))
            }
            "=" | "==" => ("$eq", parse(value)?),
            ">" => ("$gt", parse(value)?),
            ">=" => ("$gte", parse(value)?),
            "<" => ("$lt", parse(value)?),
            "<=" => ("$lte", parse(value)?),
            "!=" | "<>" | "not" | "ne" | "nin" | "$ne" | "$nin" | "$not" => {
                return fail(
                    op,
                    format!(
                        "`{entry}`: negations are not allowed in a partial index (the server refuses `$ne`, `$nin` \
                         and `$not` there); rewrite it as a positive condition with {PARTIAL_OPS}"
                    ),
                )
            }
            other => {
                return fail(
                    other,
                    format!("unknown operator `{other}` in `{entry}`: a partial index accepts {PARTIAL_OPS}"),
                )
            }
        };
        out.push(Condition { key, op, value: v });
    }
    Ok(out)
}

/// A literal in a partial filter.
pub enum PartialValue {
    Bool(bool),
    Int(i64),
    Double(f64),
    Str(String),
}

impl PartialValue {
    fn parse(entry: &str, v: &str) -> Result<Self, String> {
        if v == "true" || v == "false" {
            return Ok(PartialValue::Bool(v == "true"));
        }
        if let Ok(n) = v.parse::<i64>() {
            return Ok(PartialValue::Int(n));
        }
        if let Ok(f) = v.parse::<f64>() {
            if f.is_finite() {
                return Ok(PartialValue::Double(f));
            }
        }
        if v.len() >= 2 && v.starts_with('\'') && v.ends_with('\'') {
            return Ok(PartialValue::Str(v[1..v.len() - 1].to_owned()));
        }
        Err(format!("`{v}` in `{entry}` is not a value: use a number, `true`/`false` or a 'quoted string'"))
    }
}
