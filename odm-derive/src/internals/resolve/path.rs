//! One field path (`a` or `a.b`) resolved against the struct's fields: the step every small language shares,
//! so a path means the same thing in `keys`, `partial`, `weights`, queries and the shard key.

use super::field::FieldFacts;
use crate::internals::ast::Field;
use crate::internals::attr::closest;
use crate::internals::index_keys::{embedded_type, field_list, is_array_field};
use crate::internals::lists::PartError;
use crate::internals::rules;
use crate::internals::source::Source;
use crate::internals::ty;

/// A resolved path: the top-level field, the nested field name with the embedded type that declares it, and
/// whether the top-level field is (syntactically) an array.
pub type Path<'a> = (Option<&'a Field<'a>>, Option<(String, &'a syn::Type)>, bool);

/// Resolves one path (`a` or `a.b`) against the struct's fields. An error is about `path` or a part of it; the
/// caller places it in the whole string with [`PartError::within`].
pub fn resolve_path<'a>(fields: &'a [Field<'a>], facts: &FieldFacts, path: &str) -> Result<Path<'a>, PartError> {
    let segments: Vec<&str> = path.split('.').collect();
    if segments.iter().any(|s| s.is_empty() || s.contains(char::is_whitespace)) {
        return Err(PartError::at(
            rules::PATH_FIELD,
            path,
            path,
            format!("`{path}`"),
            " is not a field path: write `field` or `field.nested`, with Rust field names",
        ));
    }
    if segments.len() > 2 {
        return Err(PartError::at(
            rules::PATH_FIELD,
            path,
            path,
            format!("`{path}`"),
            format!(
                ": paths deeper than `field.nested` are not supported yet; index `{}.{}` or flatten the embedded type",
                segments[0], segments[1]
            ),
        ));
    }
    let Some(field) = fields.iter().find(|f| f.rust_name == segments[0]) else {
        return Err(unknown_field(fields, path, segments[0], &path[segments[0].len()..]));
    };
    if !field.is_stored() {
        return Err(PartError::at(
            rules::PATH_FIELD,
            path,
            segments[0],
            format!("field `{}`", field.rust_name),
            " is skipped when serializing, so it is never stored and cannot be indexed or filtered on",
        ));
    }
    let first_is_array = is_array_field(field, &facts.of(field).source);
    if segments.len() == 1 {
        return Ok((Some(field), None, first_is_array));
    }
    let not_embedded = || {
        Err(PartError::at(
            rules::PATH_FIELD,
            path,
            path,
            format!("field `{}` (`{}`)", field.rust_name, ty::display(field.ty)),
            format!(
                " is not an embedded struct, so `{path}` names nothing; nested paths go into `#[derive(Embedded)]` \
                 structs"
            ),
        ))
    };
    if !matches!(facts.of(field).source, Source::Trait) {
        return not_embedded();
    }
    match embedded_type(field.ty) {
        (Some(inner), _) => Ok((Some(field), Some((segments[1].to_owned(), inner)), first_is_array)),
        (None, _) => not_embedded(),
    }
}

/// `name` (a slice of `text`, followed there by `rest`, e.g. `.nested`) is no field of the struct: the error
/// suggests the field it most likely means, by Rust name or by stored key, with `rest` kept.
pub fn unknown_field(fields: &[Field], text: &str, name: &str, rest: &str) -> PartError {
    let stored = || fields.iter().filter(|f| f.is_stored());
    let guess = stored()
        .find(|f| f.key == name)
        .map(|f| f.rust_name.as_str())
        .or_else(|| closest(name, stored().map(|f| f.rust_name.as_str())));
    let hint = guess.map_or_else(String::new, |g| format!(" (did you mean `{g}{rest}`?)"));
    PartError::at(
        rules::PATH_FIELD,
        text,
        name,
        format!("unknown field `{name}`"),
        format!("{hint}: paths use Rust field names (fields here: {})", field_list(fields)),
    )
}
