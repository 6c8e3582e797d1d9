//! The validators of a versioned model, and the version they mark: while documents of older versions remain, the
//! collection's validator accepts every version the model reads (each in its own shape, and nothing else); once
//! none are left, sync tightens it to the current version alone.
//!
//! Each validator names its version in the top-level `title` (`"version 3"`), which has no effect on validation and
//! does not appear in error output, so that a sync can tell a collection that a newer binary already synced from one
//! it should bring forward.

use crate::base::model::older::{title, OlderShape};
use crate::base::model::{Model, VersionSpec};
use crate::base::schema::checks_under;
use bson::{doc, Bson, Document};

/// The validator of model `M` while documents of older versions remain: a `$jsonSchema` whose `oneOf` holds the
/// current shape and each older one, tied to the version key (the oldest shape also matches documents without
/// it), plus the counted-array checks of each shape, each applied to its own version only. `None` when the model
/// reads no older version.
///
/// It accepts exactly what the model reads: a document of a listed version in that version's shape. Sync installs
/// it while such documents exist and replaces it with [`Model::validator`] once none are left.
pub fn accepting_older<M: Model>() -> Option<Document> {
    let spec = M::VERSION?;
    if M::OLDER.is_empty() {
        return None;
    }
    let mut branches = vec![Bson::Document(M::bson_schema())];
    let mut exprs: Vec<Bson> = M::counters().into_iter().map(|c| only_at(spec, spec.current, c.into_expr())).collect();
    for shape in M::OLDER.iter().rev() {
        branches.push(Bson::Document(tagged(spec, shape)));
        if let Some(meta) = (shape.meta)() {
            let mut out = Vec::new();
            checks_under(meta, "$", 0, &mut out);
            exprs.extend(out.into_iter().map(|c| only_at(spec, shape.version, c.into_expr())));
        }
    }
    let title = format!(
        "{}, accepting versions {} to {} while older documents remain",
        title(spec.current),
        spec.oldest,
        spec.current
    );
    let mut v = doc! { "$jsonSchema": { "title": title, "oneOf": branches } };
    match exprs.len() {
        0 => {}
        1 => {
            v.insert("$expr", exprs.remove(0));
        }
        _ => {
            v.insert("$and", exprs.into_iter().map(|e| Bson::from(doc! { "$expr": e })).collect::<Vec<_>>());
        }
    }
    Some(v)
}

/// An older shape's schema, tied to its version: the version key holds exactly that version, and is required
/// except for the oldest shape (a document without it is read as the oldest).
///
/// The key is typed as well as valued: `enum` compares numbers by value, so `{enum: [1]}` alone would also accept
/// `1.0`, `NumberLong(1)` or `NumberDecimal("1")`, which reads do not take as a version. Each branch stores the key
/// as the current version does (`int`), or as the older shape itself declares it when that is another integer type
/// reads take (`long`): every version value the validator accepts is one a typed read dispatches on.
fn tagged(spec: VersionSpec, shape: &OlderShape) -> Document {
    let mut schema = (shape.schema)();
    let key = spec.key;
    let mut properties = schema.get_document("properties").cloned().unwrap_or_default();
    let declared = properties.get_document(key).ok().and_then(|p| p.get_str("bsonType").ok());
    let key_schema = match declared {
        Some("long") => doc! { "bsonType": "long", "enum": [i64::from(shape.version)] },
        _ => doc! { "bsonType": "int", "enum": [shape.version as i32] },
    };
    properties.insert(key, key_schema);
    schema.insert("properties", properties);
    if shape.version != spec.oldest {
        let mut required = schema.get_array("required").cloned().unwrap_or_default();
        if !required.iter().any(|r| r.as_str() == Some(key)) {
            required.push(Bson::from(key));
        }
        schema.insert("required", required);
    }
    schema
}

/// A counter check that applies to documents at `version` only (those without the key are the oldest version).
fn only_at(spec: VersionSpec, version: u32, check: Bson) -> Bson {
    let stored = format!("${}", spec.key);
    let stored = if version == spec.oldest {
        Bson::from(doc! { "$ifNull": [stored, version as i32] })
    } else {
        Bson::from(stored)
    };
    Bson::from(doc! { "$or": [{ "$ne": [stored, version as i32] }, check] })
}
