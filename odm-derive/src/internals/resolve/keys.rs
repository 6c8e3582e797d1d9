//! The `keys` language of an index (`"merchant, -created_at, title:text, meta.$**"`): each entry resolved to a
//! field path and a key kind.

use super::field::FieldFacts;
use super::path::resolve_path;
use crate::internals::ast::Field;
use crate::internals::index_keys::{Key, KeyKind};
use crate::internals::lists::{entries, range_in, PartError};
use crate::internals::rules;

/// Parses `keys = "merchant, status, -created_at, title:text"`.
pub fn resolve_keys<'a>(fields: &'a [Field<'a>], facts: &FieldFacts, keys: &str) -> Result<Vec<Key<'a>>, PartError> {
    let mut out = Vec::new();
    for raw in entries(keys) {
        let key = match parse_key(keys, raw)? {
            (None, kind) => Key { field: None, nested: None, first_is_array: false, kind, at: range_in(keys, raw) },
            (Some(path), kind) => {
                let (field, nested, first_is_array) =
                    resolve_path(fields, facts, path).map_err(|e| e.within(keys, path))?;
                Key { field, nested, first_is_array, kind, at: range_in(keys, path) }
            }
        };
        out.push(key);
    }
    Ok(out)
}

/// One entry of `keys` (a slice of it): the path it indexes (`None` for `$**`), as a slice too, and its kind.
fn parse_key<'t>(keys: &str, raw: &'t str) -> Result<(Option<&'t str>, KeyKind), PartError> {
    if raw.is_empty() {
        return Err(PartError::quoting(rules::INDEX_KEYS, keys, raw, "empty key in `keys`: write `keys = \"a, -b\"`"));
    }
    if raw == "$**" {
        return Ok((None, KeyKind::Wildcard));
    }
    let (path, kind) = match raw.split_once(':') {
        Some((p, k)) => {
            let kind = match k.trim() {
                "text" => KeyKind::Text,
                "hashed" => KeyKind::Hashed,
                "2dsphere" => KeyKind::Sphere,
                "1" => KeyKind::Asc,
                "-1" => KeyKind::Desc,
                other => {
                    let msg = format!(
                        "unknown index type `{other}` for `{}`: expected `text`, `hashed`, `2dsphere`, `1` or `-1`",
                        p.trim()
                    );
                    return Err(PartError::quoting(rules::INDEX_KEYS, keys, other, msg));
                }
            };
            (p.trim(), kind)
        }
        None => match raw.strip_prefix('-') {
            Some(p) => (p.trim(), KeyKind::Desc),
            None => (raw, KeyKind::Asc),
        },
    };
    Ok(match path.strip_suffix(".$**") {
        Some(p) => (Some(p), KeyKind::Wildcard),
        None => (Some(path), kind),
    })
}
