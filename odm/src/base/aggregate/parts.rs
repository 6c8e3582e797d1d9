//! The pieces stages are built from: a path's stored key, a field reference, a one-operator stage document, a
//! type's Rust name, and the check that a shape-changing stage fills every field of its output type.

use crate::base::document::put;
use crate::base::error::{Clause, Invalid, NamedPath};
use crate::base::meta::TypeMeta;
use crate::base::path::{AsPath, Path};
use crate::base::schema::BsonSchema;
use bson::{Bson, Document};

/// The Rust name of a document type.
pub(crate) fn type_name<D: BsonSchema>() -> &'static str {
    D::type_meta().map_or_else(std::any::type_name::<D>, |m| m.name)
}

/// A path's stored key as a stage builder takes it, or why the path cannot be used ([`key_of`]).
pub(crate) type StageKey<'a> = std::result::Result<&'a str, Box<Invalid>>;

/// Keeps `problem` in `slot` unless a first one is there: a stage builder reports the first problem it met.
#[inline]
pub(crate) fn keep_first(slot: &mut Option<Box<Invalid>>, problem: impl Into<Box<Invalid>>) {
    if slot.is_none() {
        *slot = Some(problem.into());
    }
}

/// The stored key of a path a stage reads or writes, or why it cannot be used.
pub(crate) fn key_of<R, W, A>(path: &Path<R, W, A>) -> std::result::Result<&str, Invalid> {
    path.raw.check()?;
    if path.raw.positional {
        return Err(Invalid::Positional { path: NamedPath::at(path.key()), clause: Clause::Stage });
    }
    if path.key().is_empty() {
        return Err(Invalid::Root);
    }
    Ok(path.key())
}

/// [`key_of`], its error naming the path in the Rust fields of the path's own root type.
pub(crate) fn named_key_of<R: BsonSchema, W, A>(path: &Path<R, W, A>) -> std::result::Result<&str, Invalid> {
    key_of(path).map_err(|e| e.named(R::type_meta()))
}

/// [`named_key_of`] for a stage builder's body, its problem boxed: the builders pass two keys to every call, and a
/// key is a pointer and a length while a problem is a large value. Inlined: most paths are plain, and the rest are
/// checked out of line.
#[inline(always)]
pub(crate) fn stage_key_of<R: BsonSchema, W, A>(path: &Path<R, W, A>) -> StageKey<'_> {
    match path.raw.is_bare() && !path.raw.positional && !path.key().is_empty() {
        true => Ok(path.key()),
        false => refused_stage_key(path),
    }
}

/// [`stage_key_of`] of a path that may be refused.
#[cold]
#[inline(never)]
fn refused_stage_key<R: BsonSchema, W, A>(path: &Path<R, W, A>) -> StageKey<'_> {
    named_key_of(path).map_err(Box::new)
}

/// `"$key"`: a field reference.
pub(crate) fn reference(key: &str) -> Bson {
    let mut s = String::with_capacity(key.len() + 1);
    s.push('$');
    s.push_str(key);
    Bson::String(s)
}

pub(crate) fn stage(name: &str, body: impl Into<Bson>) -> Document {
    let mut d = Document::new();
    put(&mut d, name.to_owned(), body.into());
    d
}

/// The field reference of a source path, or why it cannot be used (named through `D`).
pub(crate) fn source<D: BsonSchema, Q: AsPath<D>>(from: &Q) -> std::result::Result<Bson, Box<Invalid>> {
    stage_key_of(from.as_path()).map(reference)
}

/// Checks that `doc` (a `$project` or `$group` body, or `$facet` branches) fills every field of `O` that serde
/// always writes; names the first missing ones.
pub(crate) fn missing<O: BsonSchema>(
    doc: &Document,
    stage_name: &'static str,
    id_kept: bool,
) -> std::result::Result<(), Invalid> {
    missing_in(O::type_meta(), None, |key| has_key(doc, key) || (id_kept && key == "_id"), stage_name)
}

/// True when `doc` has `key`: a stage body has a few keys, and comparing them costs less than hashing one.
pub(crate) fn has_key(doc: &Document, key: &str) -> bool {
    if doc.len() <= 8 {
        doc.keys().any(|k| k == key)
    } else {
        doc.contains_key(key)
    }
}

/// [`missing`] for the output type whose field table is `out`, with `filled` saying which stored keys the stage fills
/// and `given`, when the builder counted them, how many distinct top-level fields of `out` it was given.
pub(crate) fn missing_in(
    out: Option<&'static TypeMeta>,
    given: Option<usize>,
    filled: impl Fn(&str) -> bool,
    stage_name: &'static str,
) -> std::result::Result<(), Invalid> {
    let Some(meta) = out else { return Ok(()) };
    // Every field given (the builders refuse a field given twice, and a path of `out` names one of its fields):
    // nothing can be missing, and no key needs comparing.
    if meta.variants.is_empty() && given == Some(meta.fields.len()) {
        return Ok(());
    }
    if meta.fields.iter().all(|f| f.optional || filled(f.key)) {
        return Ok(());
    }
    let absent: Vec<NamedPath> = meta
        .fields
        .iter()
        .filter(|f| !f.optional && !filled(f.key))
        .map(|f| NamedPath::known(f.key, format!("{}.{}", meta.name, f.name)))
        .collect();
    if absent.is_empty() {
        return Ok(());
    }
    Err(Invalid::Unset { stage: stage_name, into: meta.name, fields: absent })
}

/// The `$project` of `E`'s keys inside a lookup of `F`, refusing keys `F` does not have.
pub(crate) fn narrowed<F: BsonSchema, E: BsonSchema>() -> std::result::Result<Document, Invalid> {
    let (Some(f), Some(e)) = (F::type_meta(), E::type_meta()) else {
        return Err(Invalid::LookupElement);
    };
    let mut project = Document::new();
    let mut has_id = false;
    for field in e.fields {
        if f.field_by_key(field.key).is_none() {
            let at = NamedPath::known(field.key, format!("{}.{}", e.name, field.name));
            return Err(Invalid::LookupField { field: at, model: f.name });
        }
        has_id |= field.key == "_id";
        put(&mut project, field.key.to_owned(), Bson::Int32(1));
    }
    if !has_id {
        put(&mut project, "_id".to_owned(), Bson::Int32(0));
    }
    Ok(project)
}

#[cfg(test)]
mod tests {
    use super::narrowed;
    use crate::base::error::Invalid;
    use crate::base::meta::tests::{LINE, ORDER};
    use crate::base::meta::TypeMeta;
    use crate::base::schema::BsonSchema;

    /// A document type with the field table `T`.
    struct Table<const T: u8>;
    impl<const T: u8> BsonSchema for Table<T> {
        type Node<R, W, A: crate::base::path::Access> = crate::base::path::Path<R, W, A>;
        const OBJECT: Option<&'static TypeMeta> = Some(if T == 0 { &ORDER } else { &LINE });
    }

    #[test]
    fn a_lookup_element_type_must_take_its_keys_from_the_joined_model() {
        // `Line.price` (stored `p`) is no field of `Order`.
        match narrowed::<Table<0>, Table<1>>() {
            Err(Invalid::LookupField { field, model: "Order" }) => {
                assert_eq!((field.stored(), field.rust()), ("p", Some("Line.price")))
            }
            other => panic!("{other:?}"),
        }
        // A scalar has no keys to take.
        assert!(matches!(narrowed::<Table<0>, i32>(), Err(Invalid::LookupElement)));
        assert!(narrowed::<Table<0>, Table<0>>().is_ok());
    }
}
