//! The pieces stages are built from: a path's stored key, a field reference, a one-operator stage document, a
//! type's Rust name, and the check that a shape-changing stage fills every field of its output type.

use crate::meta::{name_paths, Marked};
use crate::path::{AsPath, Path};
use crate::schema::BsonSchema;
use bson::{Bson, Document};

/// The Rust name of a document type.
pub(super) fn type_name<D: BsonSchema>() -> &'static str {
    D::type_meta().map_or_else(std::any::type_name::<D>, |m| m.name)
}

/// The stored key of a path a stage reads or writes, or why it cannot be used.
pub(super) fn key_of<R, W, A>(path: &Path<R, W, A>) -> std::result::Result<&str, String> {
    path.raw.check()?;
    if path.raw.positional {
        return Err(format!("{}: a pipeline stage cannot use a positional path", Marked(path.key())));
    }
    if path.key().is_empty() {
        return Err("a pipeline stage needs a field path, not the document root".to_owned());
    }
    Ok(path.key())
}

/// `"$key"`: a field reference.
pub(super) fn reference(key: &str) -> Bson {
    let mut s = String::with_capacity(key.len() + 1);
    s.push('$');
    s.push_str(key);
    Bson::String(s)
}

pub(super) fn stage(name: &str, body: impl Into<Bson>) -> Document {
    let mut d = Document::new();
    d.insert(name, body);
    d
}

/// The field reference of a source path, or why it cannot be used (named through `D`).
pub(super) fn source<D: BsonSchema, Q: AsPath<D>>(from: &Q) -> std::result::Result<Bson, String> {
    key_of(from.as_path()).map(reference).map_err(|e| name_paths(&e, D::type_meta()))
}

/// Checks that `doc` (a `$project` or `$group` body, or `$facet` branches) fills every field of `O` that serde
/// always writes; names the first missing ones.
pub(super) fn missing<O: BsonSchema>(
    doc: &Document,
    stage_name: &str,
    id_kept: bool,
) -> std::result::Result<(), String> {
    missing_where::<O>(|key| doc.contains_key(key) || (id_kept && key == "_id"), stage_name)
}

/// [`missing`], with `filled` saying which stored keys the stage fills.
pub(super) fn missing_where<O: BsonSchema>(
    filled: impl Fn(&str) -> bool,
    stage_name: &str,
) -> std::result::Result<(), String> {
    let Some(meta) = O::type_meta() else { return Ok(()) };
    if meta.fields.iter().all(|f| f.optional || filled(f.key)) {
        return Ok(());
    }
    let absent: Vec<String> = meta
        .fields
        .iter()
        .filter(|f| !f.optional && !filled(f.key))
        .map(|f| format!("`{}.{}` (stored `{}`)", meta.name, f.name, f.key))
        .collect();
    if absent.is_empty() {
        return Ok(());
    }
    Err(format!(
        "`{stage_name}` into `{}` leaves {} unset: give every field a value (or let serde leave it out)",
        meta.name,
        absent.join(", ")
    ))
}

/// The `$project` of `E`'s keys inside a lookup of `F`, refusing keys `F` does not have.
pub(super) fn narrowed<F: BsonSchema, E: BsonSchema>() -> std::result::Result<Document, String> {
    let (Some(f), Some(e)) = (F::type_meta(), E::type_meta()) else {
        return Err("a `$lookup` element type must be the model or a derived struct of its fields".to_owned());
    };
    let mut project = Document::new();
    for field in e.fields {
        if f.field_by_key(field.key).is_none() {
            return Err(format!(
                "`{}.{}` (stored `{}`) is not a field of `{}`: a lookup's element type takes its keys from the joined \
                 model",
                e.name, field.name, field.key, f.name
            ));
        }
        project.insert(field.key, 1);
    }
    if !project.contains_key("_id") {
        project.insert("_id", 0);
    }
    Ok(project)
}
